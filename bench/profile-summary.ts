/**
 * Where does the time go? Summarizes a V8 CPU profile (node --cpu-prof) by self time: per package or
 * source area, and the top functions.
 *
 *   BENCH_SCENARIOS=sku-read BENCH_OUTPUT=- node --cpu-prof --cpu-prof-dir=bench/.tmp --import tsx bench/run.ts
 *   node --import tsx bench/profile-summary.ts bench/.tmp/<file>.cpuprofile [top] [last-seconds] [but-seconds]
 *
 * `last-seconds` keeps only the profile's last that many seconds (the load, not the start and seeding before
 * it); `but-seconds` leaves out the very last that many (a reference run after the load).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Groups a script URL: a package under node_modules, a source folder of ours, or node's internals. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const ours = /\/(src\/[^/]+(?:\/[^/]+)?)\//.exec(url);
  if (ours) return ours[1]!;
  return url.replace(/^file:\/\//, '');
}

function main() {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top] [last-seconds] [but-seconds]\n');
    process.exit(64);
  }
  const top = Number(process.argv[3] ?? 25);
  const lastUs = process.argv[4] === undefined ? Infinity : Number(process.argv[4]) * 1e6;
  const butUs = Number(process.argv[5] ?? 0) * 1e6;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const span = profile.timeDeltas.reduce((a, b) => a + b, 0);
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (span - at <= lastUs && span - at >= butUs) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((a, [, us]) => a + us, 0);
  const busy = total - idle;

  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = `${functionName || '(anonymous)'}  ${area}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  const print = (title: string, entries: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`  ${pct(us)}  ${name}\n`);
    }
  };
  process.stdout.write(`profile ${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy time)\n`);
  print('self time by area', areas);
  print('self time by function', functions);
}

main();
