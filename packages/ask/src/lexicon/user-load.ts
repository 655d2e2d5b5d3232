import { SCALED_COUNT, scaledCount } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * Users as a serving question counts them. Users at once are a load (the protocol's concurrency, spread over replicas:
 * answer/serving-users.ts): "10k concurrent users", "1M simultaneous users", "1M users online at once", "1M active users at
 * the same time". A user base is not: "1M monthly users", "1M daily active users" (DAU counts the distinct users of a day,
 * not those at once; MAU a month's), "1M users", and "1M active users": in product metrics "active users" are DAU, WAU or
 * MAU, a user base, so only a word of at once ("concurrent", "at once", "simultaneous", "at the same time") makes them a
 * load. QA: "serve llama3-70b to 1M active users" was planned for one replica with the 1M dropped unsaid (the count
 * patterns read no "1M" before "users"); read then as 1M users at once, it planned 9,696 GPUs for what is most likely a
 * daily count.
 * Read on the normalised text, after the serving figures (serving.ts: "64 concurrent users") and a KV cache's load
 * (kv-cache.ts: "kv cache for 64 users"), which read their own counts first.
 */

/** Who is counted: users, and the words a product counts them in. */
const USERS = String.raw`(?:users?|customers?|people)`;
/** A count before them, a thousand or a million as rates and money are counted ("1M", "10k", "1 million"): SCALED_COUNT's two groups. */
const COUNT = String.raw`(?<![\w.])${SCALED_COUNT}`;
/** Not a count per day, week or month after it ("1M concurrent users a month" is no load either). */
const NOT_PER_PERIOD = String.raw`(?!\s+(?:a|an|per|each|every|\/)\s*(?:day|week|month|year)\b)`;
/** A user base's words before "users": its period ("daily active users"), or "active" alone (DAU, WAU or MAU unsaid). */
const PERIOD_WORD = String.raw`(?:daily|weekly|monthly|yearly|annual|registered|total|unique)`;

/**
 * Users at once, group 1 and 2 the count: "10k concurrent requests", "1M simultaneous users", "1M concurrent active users"
 * (a scale the plain "64 concurrent users" of serving.ts does not read); "1M users online at once", "1M active users at the
 * same time". "Active" alone is not at once (a user base, USER_BASE); beside a word of at once it is.
 */
const AT_ONCE = [
  new RegExp(String.raw`${COUNT}\s*(?:active\s+)?(?:concurrent|simultaneous|parallel)\s+(?:active\s+)?(?:${USERS}|requests?|sequences?|streams?|sessions?)\b${NOT_PER_PERIOD}`),
  new RegExp(String.raw`${COUNT}\s*(?:active\s+)?${USERS}\s+(?:(?:online|active)\s+)?(?:at once|at the same time|at a time|simultaneously|concurrently)\b`),
];

/** A user base, as written: "1M monthly users", "1M daily active users", "1M active users", "1M users a month", "1M DAU", "1M users". */
const USER_BASE = new RegExp(String.raw`${COUNT}\s*(?:(?:${PERIOD_WORD}|active)\s+)*(?:(?:active\s+)?${USERS}(?:\s+(?:a|an|per|each|every|\/)\s*(?:day|week|month|year))?|[dwm]au)\b`);

/** What a question says of its users: the users at once read (with the words read), and the user bases left unread. */
interface UserLoad {
  concurrency?: number;
  /** The words the users at once were read from, for the reading said back ("1m concurrent users"). */
  written?: string;
  /** Each user base written, as a load it is not ("1m monthly users"). */
  userBases: string[];
  /** The counts of users read, as written ("1b" of "1b active users"): a model's size they are not (parse.ts). */
  counts: string[];
}

/** The count a users phrase opens with, as written: "1b" of "1b active users", "10 thousand" of "10 thousand users". */
const countOf = (m: RegExpExecArray): string => m[0].slice(m[0].search(/\d/)).replace(/\s*(?:users?|customers?|people|active|concurrent|simultaneous|parallel|[dwm]au|daily|weekly|monthly|yearly|annual|registered|total|unique)\b.*$/, '').trim();

/** Reads (and blanks) users at once, then the user bases left; `loaded`: a concurrency the serving figures read already. */
export function takeUserLoad(s: Scanner, loaded: boolean): UserLoad {
  const out: UserLoad = { userBases: [], counts: [] };
  for (const pattern of AT_ONCE) {
    if (loaded || out.concurrency !== undefined) break;
    const m = s.take(pattern);
    const count = m === undefined ? undefined : scaledCount(m[1], m[2]);
    if (m !== undefined && count !== undefined) Object.assign(out, { concurrency: count, written: m[0].trim(), counts: [countOf(m)] });
  }
  for (let m = s.take(USER_BASE); m !== undefined; m = s.take(USER_BASE)) {
    out.userBases.push(m[0].trim());
    out.counts.push(countOf(m));
  }
  return out;
}

/** How users at once were read, said with the assumptions: the words, the count, and what a user base would be. */
export const usersReading = (written: string, users: number): string =>
  `"${written}" read as ${users.toLocaleString('en-US')} users at once, each with a request being decoded ("active users" alone, or a count per day or month, is a user base, not a load)`;

/**
 * Why a user base is not planned: users over a day or a month are not users at once, the load a serving plan is sized for
 * (daily active users count each distinct user of a day once, however briefly each one was served; "active users" unqualified
 * are such a count, as product metrics report them). The two loads that
 * are: a concurrency, or a request rate (by Little's law, requests at once = arrival rate × time each spends served).
 */
export const userBaseWhy = (typed: string): string => {
  const count = /^[\d.]+\s*(?:[kmbt]\b|thousand|million|billion|trillion)?/i.exec(typed)?.[0].trim() ?? '1000';
  return 'a user base is not a load: a count of users, "active users" included, counts the distinct users of a day, a week or a month (DAU, WAU, MAU), not the users at once, '
    + `which depends on how often and how long each one asks; give the users at once, e.g. "${count} concurrent users", or a request rate, e.g. "10 requests/s"`;
};

/**
 * A question of users or requests counted, which is a serving one where no training is named and no configuration asked
 * (classify.ts inferenceCue): "keep llama3-70b up for 1M monthly users".
 */
export const ASKS_OF_USERS = /\b(?:users?|requests?|dau|mau)\b/;

/**
 * GPU-hours named, as a count asked or a unit: "GPU-hours", "gpu hours", "H100-hours", "H100 GPU-hours", "gpu-hrs". Not a
 * price's unit ("$2/GPU-hour", "$2 per GPU-hour", "$2 a GPU-hour"), which asks no GPU-hours.
 */
export const GPU_HOURS_WORD = /(?<!\/\s*|\b(?:per|an?|each)\s+)\b(?:gpu|[a-z]{1,3}\d{2,4}[a-z]*)[\s-]*(?:gpu[\s-]*)?(?:hours?|hrs?)\b/;

/** Hosting named as a verb or its noun: "host llama3-70b", "hosting", "hosted" (never "16 hosts", "host memory", "on the host"). */
export const ASKS_TO_HOST = /\b(?:hosting|hosted)\b|(?:^|\b(?:to|i|we|and|can|could|should|would|will|me|us)\s+)host\b/;

/**
 * Hosting or a chat named, a served model's setting, a serving question where no training is named (classify.ts
 * inferenceCue): "host llama3-70b for our users", "a llama3-70b chat app".
 */
export const ASKS_OF_HOSTING = new RegExp(String.raw`\bchat(?:s|ting)?\b|${ASKS_TO_HOST.source}`);
