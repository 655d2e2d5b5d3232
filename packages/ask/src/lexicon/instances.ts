import type { Match } from './match.ts';

/**
 * Cloud instance types as people type them ("p4d", "p5.48xlarge", "ND96amsr A100 v4", "a3-megagpu-8g"): each is one
 * node of 8 GPUs of a GPU preset, so "128 p4d nodes" and "16 p5 instances" count nodes, and a price "$32.77/hr" said of
 * one is its node-hour. The GPU is the instance's; the node's network is the GPU's usual DGX-class system's (the
 * instance's own fabric, EFA, GPUDirect-TCPX or InfiniBand, is not modelled), said back in the answer. Normalised text:
 * "Standard_ND96asr_v4" arrives as "standard nd96asr v4" (parse.ts' normalize blanks underscores).
 */
interface InstanceType {
  pattern: RegExp;
  /** The instance as its provider names it. */
  name: string;
  gpu: string;
  /** The system preset, where one models the instance itself (Azure NDm A100 v4). */
  system?: string;
  /** GPUs per instance: 8 for every type here. */
  gpus: number;
  /** What the GPUs are, for the reading said back ("A100 SXM4 40GB"). */
  gpuName: string;
}

export type InstanceMatch = Match & { instance: InstanceType };

const AZURE_PREFIX = String.raw`(?:(?:azure|standard)[\s-]*)*`;

/** Longest names first: "p4de" before "p4d", "p5en" and "p5e" before "p5", "nd96amsr" before "nd96asr". */
const INSTANCE_TYPES: readonly InstanceType[] = [
  // AWS EC2 P4: p4d.24xlarge 8 × A100 40GB, p4de.24xlarge 8 × A100 80GB (https://aws.amazon.com/ec2/instance-types/p4/).
  { pattern: /\b(?:aws[\s-]*)?(?:ec2[\s-]*)?p4de(?:\.24xlarge)?\b/, name: 'p4de.24xlarge', gpu: 'a100-80gb', gpus: 8, gpuName: 'A100 SXM4 80GB' },
  { pattern: /\b(?:aws[\s-]*)?(?:ec2[\s-]*)?p4d(?:\.24xlarge)?\b/, name: 'p4d.24xlarge', gpu: 'a100-40gb', gpus: 8, gpuName: 'A100 SXM4 40GB' },
  // AWS EC2 P3: p3dn.24xlarge 8 × V100 32GB (https://aws.amazon.com/ec2/instance-types/p3/).
  { pattern: /\b(?:aws[\s-]*)?(?:ec2[\s-]*)?p3dn(?:\.24xlarge)?\b/, name: 'p3dn.24xlarge', gpu: 'v100-32gb', gpus: 8, gpuName: 'V100 SXM2 32GB' },
  // AWS EC2 P5: p5.48xlarge 8 × H100 80GB; p5e.48xlarge and p5en.48xlarge 8 × H200 141GB (https://aws.amazon.com/ec2/instance-types/p5/).
  { pattern: /\b(?:aws[\s-]*)?(?:ec2[\s-]*)?p5en(?:\.48xlarge)?\b/, name: 'p5en.48xlarge', gpu: 'h200', gpus: 8, gpuName: 'H200 SXM 141GB' },
  { pattern: /\b(?:aws[\s-]*)?(?:ec2[\s-]*)?p5e(?:\.48xlarge)?\b/, name: 'p5e.48xlarge', gpu: 'h200', gpus: 8, gpuName: 'H200 SXM 141GB' },
  { pattern: /\b(?:aws[\s-]*)?(?:ec2[\s-]*)?p5(?:\.48xlarge)?\b(?![.\d])/, name: 'p5.48xlarge', gpu: 'h100-sxm', gpus: 8, gpuName: 'H100 SXM5 80GB' },
  // Azure NDm A100 v4, Standard_ND96amsr_A100_v4: 8 × A100 80GB
  // (https://learn.microsoft.com/en-us/azure/virtual-machines/sizes/gpu-accelerated/ndma100v4-series); the system preset models it.
  {
    pattern: new RegExp(String.raw`\b${AZURE_PREFIX}nd96amsr(?:[\s-]*a100)?(?:[\s-]*v4)?\b|\b${AZURE_PREFIX}ndm[\s-]*a100[\s-]*v4\b`),
    name: 'Standard_ND96amsr_A100_v4 (NDm A100 v4)', gpu: 'a100-80gb', system: 'azure-ndm-a100-v4', gpus: 8, gpuName: 'A100 SXM4 80GB',
  },
  // Azure ND A100 v4, Standard_ND96asr_v4: 8 × A100 40GB (https://learn.microsoft.com/en-us/azure/virtual-machines/sizes/gpu-accelerated/nda100v4-series).
  {
    pattern: new RegExp(String.raw`\b${AZURE_PREFIX}nd96asr(?:[\s-]*a100)?(?:[\s-]*v4)?\b|\b${AZURE_PREFIX}nd[\s-]*a100[\s-]*v4\b`),
    name: 'Standard_ND96asr_v4 (ND A100 v4)', gpu: 'a100-40gb', gpus: 8, gpuName: 'A100 SXM4 40GB',
  },
  // Azure ND H100 v5, Standard_ND96isr_H100_v5: 8 × H100 80GB (https://learn.microsoft.com/en-us/azure/virtual-machines/sizes/gpu-accelerated/ndh100v5-series).
  {
    pattern: new RegExp(String.raw`\b${AZURE_PREFIX}nd96isr[\s-]*h100(?:[\s-]*v5)?\b|\b${AZURE_PREFIX}nd[\s-]*h100[\s-]*v5\b`),
    name: 'Standard_ND96isr_H100_v5 (ND H100 v5)', gpu: 'h100-sxm', gpus: 8, gpuName: 'H100 SXM5 80GB',
  },
  // Google Cloud A2: a2-highgpu-8g 8 × A100 40GB, a2-ultragpu-8g 8 × A100 80GB; A3: a3-highgpu-8g and a3-megagpu-8g 8 × H100 80GB
  // (https://cloud.google.com/compute/docs/accelerator-optimized-machines).
  { pattern: /\b(?:gcp[\s-]*)?a2[\s-]*highgpu[\s-]*8g\b/, name: 'a2-highgpu-8g', gpu: 'a100-40gb', gpus: 8, gpuName: 'A100 SXM4 40GB' },
  { pattern: /\b(?:gcp[\s-]*)?a2[\s-]*ultragpu[\s-]*8g\b/, name: 'a2-ultragpu-8g', gpu: 'a100-80gb', gpus: 8, gpuName: 'A100 SXM4 80GB' },
  { pattern: /\b(?:gcp[\s-]*)?a3[\s-]*highgpu[\s-]*8g\b/, name: 'a3-highgpu-8g', gpu: 'h100-sxm', gpus: 8, gpuName: 'H100 SXM5 80GB' },
  { pattern: /\b(?:gcp[\s-]*)?a3[\s-]*megagpu[\s-]*8g\b/, name: 'a3-megagpu-8g', gpu: 'h100-sxm', gpus: 8, gpuName: 'H100 SXM5 80GB' },
  // A3 Ultra: a3-ultragpu-8g, 8 × H200 141GB (same page).
  { pattern: /\b(?:gcp[\s-]*)?a3[\s-]*ultra(?:gpu[\s-]*8g)?\b/, name: 'a3-ultragpu-8g', gpu: 'h200', gpus: 8, gpuName: 'H200 SXM 141GB' },
  // The family alone before a machine noun ("8 a3 vms", "a2 nodes"): its 8-GPU type, A2's the 40GB one (a2-highgpu-8g).
  { pattern: /\b(?:gcp[\s-]*)?a3\b(?=\s*(?:nodes?|instances?|vms?|machines?)\b)/, name: 'a3-highgpu-8g', gpu: 'h100-sxm', gpus: 8, gpuName: 'H100 SXM5 80GB' },
  { pattern: /\b(?:gcp[\s-]*)?a2\b(?=\s*(?:nodes?|instances?|vms?|machines?)\b)/, name: 'a2-highgpu-8g', gpu: 'a100-40gb', gpus: 8, gpuName: 'A100 SXM4 40GB' },
];

/**
 * A name shaped like a cloud instance type that none of INSTANCE_TYPES is ("p3.16xlarge", 8 × V100 16GB, which no GPU
 * preset is; "a2-highgpu-4g", 4 GPUs a VM; "g5.48xlarge"): named back by parse.ts as not known, with its count kept
 * from being read as anything else, rather than planned on a default GPU and 128 nodes unsaid.
 */
// A family after "AWS" or before "instances" with no size ("128 AWS p6", "16 p6 instances"): QA planned "on 128 AWS p6" on
// the default H100, where "p3.16xlarge" is named back.
const INSTANCE_SHAPED = /\b(?:[a-z]{1,3}\d[a-z\d]*\.\d*x?large|[a-z]\d-(?:high|ultra|mega|edge)gpu-\d+g|standard[\s-]*n[cdv]\w*)\b|(?<=\baws[\s-]*(?:ec2[\s-]*)?)(?!trn|inf)[a-z]{1,3}\d[a-z\d-]*\b|\bp\d[a-z\d-]*(?=\s*(?:nodes?|instances?|vms?)\b)/;

/** The known types' names, for a refusal of an unknown one to list ("p4d.24xlarge, …"). */
export const KNOWN_INSTANCE_NAMES: readonly string[] = [...new Set(INSTANCE_TYPES.map((i) => i.name))];

/** An instance-shaped name the text holds that no known type matched; undefined when none. */
export function unknownInstance(text: string): string | undefined {
  return matchInstance(text) === undefined ? INSTANCE_SHAPED.exec(text)?.[0] : undefined;
}

/** The first cloud instance type the (normalised) text names; undefined when none. */
export function matchInstance(text: string): InstanceMatch | undefined {
  for (const instance of INSTANCE_TYPES) {
    const m = instance.pattern.exec(text);
    if (m) return { index: m.index, length: m[0].length, instance };
  }
  return undefined;
}

/** How an instance was read, said back: its GPUs and, where no preset models it, the network taken for it. */
export function instanceReading(i: InstanceType, network: string | undefined): string {
  const fabric = i.system !== undefined || network === undefined
    ? ''
    : `; the network between nodes taken as ${network} (the instance's own fabric is not modelled)`;
  return `${i.name} read as one node of ${i.gpus} × ${i.gpuName}${fabric}`;
}
