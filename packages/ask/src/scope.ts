import type { IntentName } from './question.ts';

/**
 * Questions the planner cannot answer, found by their wording and declined with a pointer, never
 * answered as a pretraining question: fine-tuning, offload, hyperparameters. (Serving is planned: serving-answer.ts.)
 */
export interface OutOfScope {
  /** Why, as a problem sentence ("I could not answer that: …"). */
  problem: string;
  /** Where to ask instead, when somewhere can (a note under the headline). */
  pointer?: string;
}

/**
 * Post-training methods no plan models. Beside RLHF and DPO: PPO as RLHF runs it (Ouyang et al. 2022, InstructGPT: a policy,
 * a reference model, a reward model and a value model, with generation in each step), GRPO (Shao et al. 2024, DeepSeekMath,
 * arXiv:2402.03300: a group of samples generated a prompt, no value model) and RLAIF, and the training of a reward model.
 * QA: "how long to run PPO on llama3-8b with a 8B reward model on 16 H100" was answered as 15T tokens of pretraining.
 */
const POST_TRAINING = String.raw`rlhf|rlaif|dpo|ppo|grpo|instruction[\s-]*tun\w*`;
/**
 * A reward model's training, not any mention of one: "train a reward model", "training the 8B reward model", "reward model
 * training", "reward modeling" (InstructGPT §3.5 names the step "reward modeling (RM)"), a model trained "as a reward model".
 * A reward model trained is a classifier fitted on preference pairs, no pretraining run. QA: "…; reward model comes later"
 * was declined as fine-tuning, the question itself a pretraining one.
 */
const REWARD_MODEL = String.raw`reward[\s-]*models?\b`;
const TRAINS = String.raw`\b(?:train|pre[\s-]*train|fine[\s-]*tun|finetun|fit)\w*\s+`;
const REWARD_MODEL_TRAINING = [
  // "train a reward model", "training the 8B reward model", "fit our reward model".
  String.raw`${TRAINS}(?:(?:an?|the|our|my|its|their|one|new)\s+)?(?:\d+(?:\.\d+)?\s*[bm][\s-]+)?(?:param(?:eter)?s?\s+)?${REWARD_MODEL}`,
  // "train llama3-8b as a reward model".
  String.raw`${TRAINS}\S+\s+as\s+(?:an?|the)\s+${REWARD_MODEL}`,
  // "reward model training", "reward models trained on 100k pairs".
  String.raw`\breward[\s-]*models?[\s-]+(?:training|train(?:ed|s|ing)?|fine[\s-]*tun\w*|fitting)\b`,
  String.raw`\breward[\s-]*model(?:l)?ing\b`,
].join('|');
export const FINE_TUNING = new RegExp(String.raw`\b(?:fine[\s-]*tun\w*|finetun\w*|q?lora|sft|peft|${POST_TRAINING})\b|${REWARD_MODEL_TRAINING}`);
const LEARNING_RATE = /\b(?:learning[\s-]*rates?|lr)\b/;
// Read on the text left once stated facts are taken, so "batch size 1024" (a stated batch) is no question.
const BATCH_SIZE = /\b(?:optimal|best|ideal|right|recommended|good|critical|what|which)\s+(?:global\s+)?batch(?:[\s-]*sizes?)?\b/;

/**
 * "Full fine-tune", "full fine-tuning", "full-parameter finetuning", "fully fine-tune": every weight trained, as in pretraining.
 * Not with an adapter method named (LoRA, QLoRA, PEFT, adapters), which trains few weights and holds others frozen or quantised.
 */
const FULL_FINE_TUNING = /\bfull(?:y|[\s-]*(?:param(?:eter)?s?|weights?))?[\s-]+fine[\s-]*tun\w*|\bfull[\s-]*finetun\w*/;
const ADAPTERS = /\b(?:q?lora|peft|adapters?|prefix[\s-]*tuning|prompt[\s-]*tuning)\b/;
/**
 * "Fine-tune", "finetuning", "SFT" with no method named: supervised fine-tuning of every weight, as SFT is run by default
 * (Ouyang et al. 2022, InstructGPT §3.5: the SFT model is the pretrained GPT-3 trained further on all its weights; Hugging
 * Face TRL's SFTTrainer trains them all unless a PEFT config is given). QA: "how much memory to fine tune llama3 8b" was
 * declined where "full finetune" was answered. Not RLHF, DPO, PPO or GRPO, which hold a reward or a reference model besides.
 */
const PLAIN_FINE_TUNING = /\b(?:fine[\s-]*tun\w*|finetun\w*|sft)\b/;
const OTHER_TUNING = new RegExp(String.raw`\b(?:${POST_TRAINING})\b|${REWARD_MODEL_TRAINING}`);

/** Whether a fine-tuning question names no method ("fine tune", "SFT"), read as full fine-tuning, which the answer says. */
export const plainFineTuning = (normal: string): boolean => !FULL_FINE_TUNING.test(normal) && PLAIN_FINE_TUNING.test(normal);

/**
 * A memory question of full fine-tuning ("how much vram to full finetune a 7b with adam", "memory to fine tune llama3 8b",
 * no method named: PLAIN_FINE_TUNING): its memory per GPU is
 * pretraining's for the same model, batch, sequence length and parallelism (the weights, their gradients, Adam's two
 * moments and FP32 master copy, and the activations: Rajbhandari et al. 2020, ZeRO §3.1: 16 bytes a parameter besides the
 * activations; what changes is the data and the run's length, which a memory question does not ask). Answered as
 * pretraining's memory, said so (answer/training-memory.ts); LoRA and the rest stay declined.
 */
export const asksFullFineTuningMemory = (normal: string, intent: IntentName): boolean =>
  intent === 'memory' && (FULL_FINE_TUNING.test(normal) || PLAIN_FINE_TUNING.test(normal)) && !ADAPTERS.test(normal) && !OTHER_TUNING.test(normal);

/**
 * Why a fine-tuning question is declined: adapters (LoRA, QLoRA), preference tuning and a fine-tuning run's time are not
 * modelled; the memory of a full fine-tune (SFT of every weight) is, as pretraining's (asksFullFineTuningMemory), and the
 * message says so, so that a declined question is pointed at the one that is answered (QA: it said "SFT is not modelled"
 * beside an answered SFT memory question).
 */
export const FINE_TUNING_DECLINED = 'fine-tuning runs (LoRA, QLoRA, DPO, RLHF with PPO or GRPO, reward models, a run\'s time) are not modelled, only pretraining; '
  + 'the memory of a full fine-tune is, as pretraining\'s: ask "how much memory to full fine-tune llama3-8b on 8 h100"';

/**
 * Weights, gradients or optimizer state kept off the GPU: ZeRO-Offload (Ren et al. 2021, arXiv:2101.06840: the optimizer
 * state and its step on the CPU), ZeRO-Infinity (Rajbhandari et al. 2021, arXiv:2104.07857: CPU and NVMe), FSDP's CPU
 * offload, DeepSpeed's offload_optimizer / offload_param. The planner keeps all of it in GPU memory (ZeRO stages 1–3 and
 * Megatron's distributed optimizer shard it over GPUs, and are modelled): a memory question asked with offload was answered
 * "does not fit" on GPU memory alone, and "FSDP and CPU offload" planned as ZeRO-3 with the offload unsaid (QA). Only
 * offload that names what it moves (the model's state) or where it goes (the CPU, NVMe, host memory), or a method that is
 * one: "offload traffic to a second region", "with offload of overflow traffic" and "offload checkpoints to disk" move no
 * model state off the GPU (QA: all three were declined as ZeRO-Offload). A bare "with offloading" is said not read
 * (bareOffload), not declined; a word such as "load" or "download" is no offload.
 */
const STATE = String.raw`(?:optimi[sz]er|param(?:eter)?|weight|gradient|activation)s?(?:[\s-]+states?)?`;
/** What an offload moves: the model's state, or the model itself ("offload the model to cpu": its weights). */
const MOVED = String.raw`(?:${STATE}|model(?:[\s-]+(?:states?|weights?))?)`;
const OFF_GPU = String.raw`(?:the\s+)?(?:cpus?|nvme|host(?:[\s-]+memory)?|ssds?|disks?|d?ram)\b`;
/** Host memory by name, where state is said to be kept ("optimizer states in cpu memory"): never a disk, where checkpoints are kept. */
const HOST = String.raw`(?:the\s+)?(?:cpus?|nvme|host)(?:[\s-]+(?:memory|ram))?\b`;
const OFFLOAD = new RegExp([
  String.raw`\bzero[\s-]*(?:infinity|offload)\b`,
  String.raw`\b(?:cpu|nvme|host|ssd|disk)[\s-]*offload\w*`,
  String.raw`\b${MOVED}[\s-]*offload\w*`,
  // "offload to cpu", "offload the optimizer states to nvme": nothing else between the verb and where it goes.
  String.raw`\boffload\w*[\s-]+(?:(?:the\s+)?${MOVED}[\s-]+)?(?:to|onto|into|on)\s+${OFF_GPU}`,
  String.raw`\boffload\w*[\s-]+(?:the\s+)?${STATE}`,
  // "optimizer states kept in cpu memory", "weights on the host".
  String.raw`\b${STATE}\s+(?:(?:kept|held|stored|moved|placed|living)\s+)?(?:in|on|to|onto|into)\s+${HOST}`,
].join('|'));
/**
 * "with offloading", "FSDP and offload", "using offload": offload as a setting, naming neither what nor where. Said not read
 * (parse.ts), the plan keeping everything in GPU memory: only where the word ends its phrase, never "offload traffic …".
 */
const BARE_OFFLOAD = /\b(?:with|using|and|plus)\s+offload(?:ing)?\b(?=\s*(?:$|[,.;:?!)]|(?:on|in|for|and|at|to\s+(?:train|serve|run|fit))\b))/;

/** A bare offload setting as the text writes it ("with offloading"), or undefined where none is (or offload is declined: OFFLOAD). */
export function bareOffload(normal: string): string | undefined {
  return OFFLOAD.test(normal) ? undefined : BARE_OFFLOAD.exec(normal)?.[0];
}

/** Why a bare offload setting is not read: the plan is the one with everything in GPU memory. */
export const BARE_OFFLOAD_WHY = 'it names no weights, gradients, optimizer state or activations moved off the GPU; '
  + 'offloading those (ZeRO-Offload, FSDP\'s CPU offload) is not modelled, and this plan keeps them all in GPU memory';

/** Why a question with offload is declined, and the sharding that is planned. */
export const OFFLOAD_DECLINED = 'CPU and NVMe offload (ZeRO-Offload, ZeRO-Infinity, FSDP\'s CPU offload) are not modelled: trainplan keeps the weights, '
  + 'gradients, optimizer state and activations in GPU memory, and models sharding them over the GPUs (ZeRO stages 1–3, the distributed optimizer, '
  + 'tensor, sequence and context parallelism); ask without offload, e.g. "how much memory to train llama3-70b with ZeRO-3 on 64 H100"';

/** Why the question is one the planner does not answer; undefined when it is a planning question. */
export function outOfScope(normal: string, remaining: string, intent: IntentName): OutOfScope | undefined {
  if (FINE_TUNING.test(normal) && !asksFullFineTuningMemory(normal, intent)) return { problem: FINE_TUNING_DECLINED };
  if (OFFLOAD.test(normal)) return { problem: OFFLOAD_DECLINED };
  if (LEARNING_RATE.test(normal)) return { problem: 'hyperparameters such as the learning rate are not planned here' };
  // A serving answer is the best batch under the latency bounds: the question it asks.
  if (intent !== 'serving' && BATCH_SIZE.test(remaining)) {
    return { problem: 'the optimal batch size is not planned here (answers take a global batch of about 4M tokens unless the question gives one)' };
  }
  return undefined;
}
