/**
 * What ran during each stall? Reads a V8 CPU profile of the stall benchmark's service and the gaps its timer saw
 * (bench/stall-service.ts with BENCH_STALL_GAP_LOG), and prints, per gap, the functions that held the loop:
 * self time and inclusive time (our source files and packages, not node's loader), and the garbage collector's share.
 *
 *   BENCH_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=bench/.tmp" BENCH_STALL_GAP_LOG=bench/.tmp/gaps.jsonl \
 *     BENCH_SCENARIOS=product-import BENCH_OUTPUT=- npm run bench:stall
 *   node --import tsx bench/stall-gaps.ts bench/.tmp/<service>.cpuprofile bench/.tmp/gaps.jsonl [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Gap {
  endUs: number;
  gapMs: number;
}

const [profileFile, gapFile, topArg] = process.argv.slice(2);
if (profileFile === undefined || gapFile === undefined) {
  process.stderr.write('usage: bench/stall-gaps.ts <profile.cpuprofile> <gaps.jsonl> [top]\n');
  process.exit(64);
}
const top = Number(topArg ?? 10);
const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
const gaps = readFileSync(gapFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Gap);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, '$1').replace(/^file:\/\//, '');
  return where === '' ? functionName || '(anonymous)' : `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

// Sample times on the monotonic clock (µs), as the gap log's endUs.
const times: number[] = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) {
  clock += delta;
  times.push(clock);
}

const sum = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
const topOf = (map: Map<string, number>) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `    ${ms.toFixed(1).padStart(6)} ms  ${name}`)
    .join('\n');

for (const gap of gaps) {
  const from = gap.endUs - (gap.gapMs + 10) * 1000;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i]! < from || times[i]! > gap.endUs) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += ms;
    sum(self, label(node), ms);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const name = label(byId.get(id)!);
      if (seen.has(name) || !/(src|node_modules|bench)\//.test(name)) continue;
      seen.add(name);
      sum(inclusive, name, ms);
    }
  }
  process.stdout.write(`\n== gap of ${gap.gapMs} ms ending at ${((gap.endUs - profile.startTime) / 1e6).toFixed(2)} s of the profile: ${busy.toFixed(1)} ms busy\n`);
  process.stdout.write(`  self:\n${topOf(self)}\n  inclusive (ours and packages):\n${topOf(inclusive)}\n`);
}
