/**
 * The "## Stall benchmark" section of bench/RESULTS.md: the run just made ("now") beside the run of the code
 * before issue 22 ("today"), each with its machine lines and commit. Both runs' numbers are kept in the section
 * as one JSON comment, so a run of either kind (BENCH_STALL_ROLE=current|baseline) rewrites the tables with the
 * other run's numbers kept and the speed targets compared against "today".
 */
import { existsSync, readFileSync } from 'node:fs';
import type { PollStats } from './stall-poller.js';
import type { LoopStats } from './stall-service.js';

export interface Row {
  key: string;
  title: string;
  size: string;
  /** Seconds the throughput counts; null when the phase failed. */
  seconds: number | null;
  units: number;
  unit: string;
  cutoff: boolean;
  error: string | null;
  detail: string;
  /** Null when the service did not answer the read (its loop still held when the benchmark gave up). */
  loop: LoopStats | null;
  polls: PollStats;
}

export interface RunRecord {
  commit: string;
  date: string;
  machine: string[];
  rows: Row[];
}

export interface StallData {
  current?: RunRecord;
  baseline?: RunRecord;
}

export const TARGETS = { loopMaxMs: 50, healthzMs: 100, slowerAtMost: 1.2 };

const MARK = 'stall-bench-data:';

/** The JSON comment of this heading's section in `file`, if any. */
export function readData(file: string, heading: string): StallData {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return {};
  const next = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, next < 0 ? undefined : next);
  const at = section.indexOf(`<!-- ${MARK}`);
  if (at < 0) return {};
  const end = section.indexOf(' -->', at);
  return JSON.parse(section.slice(at + `<!-- ${MARK}`.length, end).trim()) as StallData;
}

function dataComment(data: StallData): string {
  const round = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value);
  // "--" cannot appear inside an HTML comment; in JSON it can only be inside a string, where \u002d reads back the same.
  return `<!-- ${MARK} ${JSON.stringify(data, round).replace(/--/g, '-\\u002d')} -->`;
}

const num = (v: number, digits = 0) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const msText = (v: number) => (v >= 1000 ? `${num(v / 1000, 1)} s` : `${num(v, v < 10 ? 1 : 0)} ms`);

function throughput(row: Row): number | null {
  if (row.seconds === null || row.seconds <= 0 || row.unit === '') return null;
  return row.units / row.seconds;
}

function throughputText(row: Row): string {
  const t = throughput(row);
  if (t === null) return '–';
  const value = t >= 100 ? num(t) : num(t, 1);
  return `${row.cutoff ? '< ' : ''}${value} ${row.unit}`;
}

function loopMaxText(row: Row): string {
  if (row.loop === null) return `≥ ${msText(row.polls.worstMs)} (no answer)`;
  return msText(row.loop.maxMs);
}

function healthzText(row: Row): string {
  return `${row.polls.worstIsLowerBound ? '≥ ' : ''}${msText(row.polls.worstMs)}`;
}

/** Units per CPU second of the service over the window; null where not measured. */
function perCpu(row: Row): number | null {
  if (!row.loop || row.unit === '' || row.seconds === null || row.cutoff || row.error || row.loop.cpuMs <= 0) return null;
  return row.units / (row.loop.cpuMs / 1000);
}

/** This row's throughput over today's (same key), by wall time and per CPU second; null where either is missing. */
function speedRatio(row: Row, baseline: RunRecord | undefined): { wall: number | null; cpu: number | null } {
  const before = baseline?.rows.find((r) => r.key === row.key);
  const ratio = (now: number | null, then: number | null) => (now === null || then === null || then === 0 ? null : now / then);
  return { wall: ratio(throughput(row), before ? throughput(before) : null), cpu: ratio(perCpu(row), before ? perCpu(before) : null) };
}

function targetText(row: Row, baseline: RunRecord | undefined, compare: boolean): string {
  if (row.key === 'idle') return '– (the floor)';
  if (row.error && !row.cutoff) return '**no** (failed)';
  const misses: string[] = [];
  const loopMax = row.loop?.maxMs ?? Infinity;
  if (!(loopMax < TARGETS.loopMaxMs)) misses.push('loop delay');
  if (row.polls.worstIsLowerBound || !(row.polls.worstMs < TARGETS.healthzMs)) misses.push('/healthz');
  if (row.cutoff) misses.push('cut off');
  // Slower is wall time, as the issue counts it; it only means something when both runs had the machine in the
  // same state (BENCH_STALL_BASELINE_DIR measures both back to back). Per CPU second is noted beside it.
  const ratio = compare ? speedRatio(row, baseline) : { wall: null, cpu: null };
  const limit = 1 / TARGETS.slowerAtMost;
  if (ratio.wall !== null && ratio.wall < limit) misses.push(`${num((1 - ratio.wall) * 100)} % slower`);
  const note = ratio.cpu !== null && ratio.cpu < limit ? ` (${num((1 / ratio.cpu - 1) * 100)} % more CPU per unit)` : '';
  return misses.length === 0 ? `yes${note}` : `**no**: ${misses.join(', ')}${note}`;
}

function timeText(row: Row): string {
  if (row.seconds === null) return '–';
  return `${row.cutoff ? '> ' : ''}${num(row.seconds, row.seconds < 10 ? 2 : 1)} s`;
}

function mainTable(run: RunRecord, baseline: RunRecord | undefined, compare: boolean): string[] {
  return [
    `| Workload | size | time | throughput | ${compare ? 'vs today (wall / per CPU s) | ' : ''}event-loop delay max | p99 | worst /healthz | target met? |`,
    `|---|---|---:|---:|${compare ? '---:|' : ''}---:|---:|---:|---|`,
    ...run.rows.map((row) => {
      const ratio = speedRatio(row, baseline);
      const times = (v: number | null) => (v === null ? '–' : `${num(v, 2)}×`);
      const vs = compare ? `${ratio.wall === null && ratio.cpu === null ? '–' : `${times(ratio.wall)} / ${times(ratio.cpu)}`} | ` : '';
      return (
        `| ${row.title} | ${row.size} | ${timeText(row)} | ${throughputText(row)} | ${vs}${loopMaxText(row)} | ${row.loop ? msText(row.loop.p99Ms) : '–'} | ` +
        `${healthzText(row)} | ${targetText(row, baseline, compare)} |`
      );
    }),
  ];
}

/** Units per CPU second of the service (its CPU over the whole window): steadier than wall time on a busy machine. */
function perCpuText(row: Row): string {
  const v = perCpu(row);
  if (v === null) return '–';
  return `${v >= 100 ? num(v) : num(v, 1)} ${row.unit.replace('/s', '')}`;
}

function detailTable(run: RunRecord): string[] {
  return [
    '| Workload | outcome | service CPU | per CPU s | loop busy | longest timer gap | /healthz polls (≥ 100 ms, failed) | /healthz p99 | poller loop max | service peak RSS |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...run.rows.map((row) => {
      const outcome = (row.error ? `${row.cutoff ? 'cut off' : 'FAILED'}: ${row.error}` : row.detail).replace(/\|/g, '/').slice(0, 220);
      const loop = row.loop;
      return (
        `| ${row.title} | ${outcome} | ${loop ? `${num(loop.cpuMs / 1000, 1)} s` : '–'} | ${perCpuText(row)} | ${loop ? `${num(loop.utilization * 100)} %` : '–'} | ` +
        `${loop?.gapMaxMs === undefined ? '–' : msText(loop.gapMaxMs)} | ` +
        `${row.polls.polls} (${row.polls.over100}, ${row.polls.failed}) | ${msText(row.polls.p99Ms)} | ${msText(row.polls.pollerLoopMaxMs)} | ${loop ? `${num(loop.peakRssMb)} MB` : '–'} |`
      );
    }),
  ];
}

/** What the section says of the method, above the tables. */
function introLines(role: 'current' | 'baseline'): string[] {
  return [
    `Written by \`npm run bench:stall\` (bench/stall.ts; this run: ${role === 'baseline' ? '"today"' : '"now"'}).`,
    '',
    'The service runs as `serve` does (its inline job worker on the same event loop as the API) in a process that',
    'measures its own event-loop delay (perf_hooks.monitorEventLoopDelay, reset per workload); a separate process polls',
    'GET /healthz every 50 ms (one request at a time) and keeps the worst latency; this process drives each workload',
    'through the HTTP API and receives the callbacks. Each window runs from the workload\'s first request to its end plus',
    'the settle time; its throughput counts the workload\'s own time. The ingestion is two rows: the push (the request',
    'calls, foreground work) and the background plan + apply from end to APPLIED. "Cut off": still running at the cut-off (the',
    'time is a lower bound, the throughput an upper bound). Worst /healthz "≥": a poll still unanswered when the window',
    'closed. The delays are the histogram\'s less its 10 ms resolution; "longest timer gap" (a plain setInterval in the',
    'service) cross-checks the maximum. "per CPU s": units per CPU second of the service, steadier than wall time when',
    'other work shares the two cores, so compare "vs today" with the two runs\' load averages in mind.',
  ];
}

/** The whole generated section (the notes under it, if any, are kept by writeSection); `role`: the run just made. */
export function renderSection(data: StallData, role: 'current' | 'baseline', postgres: boolean): string {
  const lines: string[] = ['## Stall benchmark', '', ...introLines(role), ''];
  const targets = postgres
    ? '**Targets** (issue 22, set for SQLite; shown here for reference): '
    : '**Targets** (issue 22, SQLite, one process with its embedded worker): ';
  lines.push(
    `${targets}event-loop delay max < ${TARGETS.loopMaxMs} ms and worst /healthz < ${TARGETS.healthzMs} ms during every workload, ` +
      `and no workload more than ${Math.round((TARGETS.slowerAtMost - 1) * 100)} % slower than today (its throughput at least 1/${TARGETS.slowerAtMost} of today's ` +
      'in wall time; meaningful only when both runs saw the same machine load: see their load lines, or measure both back to back ' +
      'with BENCH_STALL_BASELINE_DIR). Per CPU second of the service is shown beside it: steadier on a shared machine (±25 % between ' +
      'runs of the same code here, against 2× in wall time).',
    '',
  );
  if (data.current) {
    const c = data.current;
    lines.push(`**Now**: commit ${c.commit}, ${c.date}.`, '', ...c.machine, '', ...mainTable(c, data.baseline, data.baseline !== undefined), '', ...detailTable(c), '');
  } else {
    lines.push('**Now**: not measured yet.', '');
  }
  if (data.baseline) {
    const b = data.baseline;
    lines.push(`**Today (before issue 22)**: commit ${b.commit}, ${b.date}.`, '', ...b.machine, '', ...mainTable(b, undefined, false), '', ...detailTable(b), '');
  } else {
    lines.push('**Today (before issue 22)**: not measured yet (run the benchmark with BENCH_STALL_ROLE=baseline on a checkout of that code).', '');
  }
  lines.push(dataComment(data), '');
  return lines.join('\n');
}

/** One line of progress for the console. */
export function progressLine(row: Row): string {
  return (
    `${row.key.padEnd(16)} ${row.error ? `${row.cutoff ? 'CUT OFF' : 'FAILED'} (${row.error}) ` : ''}time ${timeText(row)}, ${throughputText(row)}; ` +
    `loop max ${loopMaxText(row)} (timer gap ${row.loop?.gapMaxMs === undefined ? '–' : msText(row.loop.gapMaxMs)}), p99 ${row.loop ? msText(row.loop.p99Ms) : '–'}; worst /healthz ${healthzText(row)} over ${row.polls.polls} polls — ${row.detail}\n`
  );
}
