import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const options = { publicUrl: null } as const;

/** The Not read note of a phrase, as the answer says it. */
const notReadOf = (notes: readonly string[], phrase: string): string | undefined => notes.find((n) => n.startsWith(`Not read: "${phrase}"`));

/**
 * Users at once said in other words, or at a scale ("1M"), are the concurrency "N concurrent users" is: the same serving
 * plan, the users spread over replicas. A word of at once makes them so ("concurrent", "simultaneous", "at once", "at the
 * same time", "online at once"), "active" beside one too.
 */
describe('users at once, in other words, size the replicas as concurrent users do', () => {
  it.each([
    ['serve llama3-70b to 1M concurrent users', 1_000_000],
    ['serve llama3-70b to 1 million simultaneous users', 1_000_000],
    ['serve llama3-70b to 1M users online at once', 1_000_000],
    ['serve llama3-70b to 1M users at once', 1_000_000],
    ['serve llama3-70b to 1M users at the same time', 1_000_000],
    ['serve llama3-70b to 1M active users at once', 1_000_000],
    ['serve llama3-70b to 1M concurrent active users', 1_000_000],
    ['serve llama3-70b to 10k concurrent users', 10_000],
  ])('"%s" is %d users at once', (question, users) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated.concurrency).toBe(users);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"1M users at once" answers what "1000000 concurrent users" answers, the reading said', () => {
    const synonym = ask('serve llama3-70b to 1M users at once', options);
    const canonical = ask('serve llama3-70b to 1000000 concurrent users', options);
    expect(synonym.headline).toBe(canonical.headline);
    expect(synonym.figures).toEqual(canonical.figures);
    // The million are spread over many replicas, never one replica's batch.
    expect(synonym.headline).toMatch(/serve 1,000,000 concurrent requests as [\d,]+ replicas of /);
    expect(synonym.assumptions).toContain('"1M users at once" read as 1,000,000 users at once, each with a request being decoded ("active users" alone, or a count per day or month, is a user base, not a load)');
  });

  it('neighbour: "serve llama3-70b to 1,000 concurrent users" is read as before, with no reading of other words', () => {
    const a = ask('serve llama3-70b to 1,000 concurrent users', options);
    expect(parse('serve llama3-70b to 1,000 concurrent users').stated.concurrency).toBe(1000);
    expect(a.headline).toMatch(/serve 1,000 concurrent requests as /);
    expect(a.assumptions.some((t) => t.includes('users at once'))).toBe(false);
  });
});

/**
 * A user base (users over a day or a month, or users with no word of at once) is not a load: never read as concurrency, and
 * said not read with what would be (DAU counts the distinct users of a day, not simultaneous ones). "Active users" with no
 * word of at once are one: product metrics count them as DAU, WAU or MAU. QA: "1M active users" read as 1M at once planned
 * 9,696 GPUs.
 */
describe('a user base is said not a load, never taken as users at once', () => {
  it.each([
    ['serve llama3-70b to 1M monthly users', '1M monthly users'],
    ['serve llama3-70b to 1M daily active users', '1M daily active users'],
    ['serve llama3-70b to 1M DAU', '1M DAU'],
    ['serve llama3-70b to 1M active users a month', '1M active users a month'],
    ['serve llama3-70b to 1M users', '1M users'],
    ['serve llama3-70b to 1M active users', '1M active users'],
    ['serve llama3-70b to 1M active users on 64 h100', '1M active users'],
  ])('"%s"', (question, phrase) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated.concurrency).toBeUndefined();
    const a = ask(question, options);
    const note = notReadOf(a.notes, phrase);
    expect(note).toMatch(/a user base is not a load: a count of users, "active users" included, counts the distinct users of a day, a week or a month \(DAU, WAU, MAU\), not the users at once/);
    // What to give instead: the users at once, in the question's own count, or a request rate.
    expect(note).toContain('"1M concurrent users"');
    expect(note).toMatch(/request rate/);
    // Planned as one replica, the million never spread.
    expect(a.headline).not.toContain('1,000,000');
  });

  it.each([
    ['serve llama3-8b to 64 active users on 1 h100', '64 active users', '"64 concurrent users"'],
    ['serve llama3-70b to 1B active users on 4096 h100', '1B active users', '"1B concurrent users"'],
  ])('"%s": a user base in its own count, never a second model said not compared', (question, phrase, instead) => {
    const q = parse(question);
    expect(q.stated.concurrency).toBeUndefined();
    expect(q.notRead?.map((n) => n.phrase)).toEqual([`"${phrase}"`]);
    expect(q.notRead?.[0]?.why).toContain(instead);
  });
});

/**
 * A question of users (users, requests, hosting, a chat) is a serving one where no training is named. QA: "keep llama3-70b
 * active for 1M users" was planned as training, 15T tokens on 128 nodes.
 */
describe('users are served, never trained', () => {
  it('"keep llama3-70b active for 1M users": serving, the 1M a user base said not a load', () => {
    const a = ask('keep llama3-70b active for 1M users', options);
    expect(a.intent).toBe('serving');
    expect(parse('keep llama3-70b active for 1M users').stated.concurrency).toBeUndefined();
    expect(notReadOf(a.notes, '1M users')).toMatch(/^Not read: "1M users" \(a user base is not a load/);
    expect(a.headline).not.toMatch(/tokens to train|days|1,000,000/);
  });

  it.each([
    ['keep llama3-70b up for 1M monthly users', '"users"'],
    ['host llama3-70b for our users', '"host"'],
    ['can we host llama3-70b on 8 h100', '"we host"'],
    ['how many h100 for a llama3-70b chat app', '"chat"'],
  ])('"%s" is serving, read so from %s', (question, cue) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.defaults.map((d) => d.text)).toContain(`read as serving (inference), from ${cue} with no training word; say "train" (e.g. "training throughput of …") for training`);
  });

  it('a user base beside no serving word is said not a load too', () => {
    const a = ask('keep llama3-70b up for 1M monthly users', options);
    expect(a.intent).toBe('serving');
    expect(notReadOf(a.notes, '1M monthly users')).toMatch(/^Not read: "1M monthly users" \(a user base is not a load/);
  });

  it('neighbours: a training word keeps it training; "16 hosts" and "host memory" are no hosting', () => {
    expect(parse('train llama3-8b on 64 h100 for our 1M users').intent).not.toBe('serving');
    expect(parse('how many nodes for 175B').intent).toBe('nodes');
    expect(parse('llama3-70b on 16 hosts of 8 h100').intent).not.toBe('serving');
    expect(parse('best config for llama3-70b on 64 h100 with optimizer states in host memory').intent).not.toBe('serving');
  });
});
