import { Writable } from 'node:stream';

/** A log destination that keeps every line written, for tests that check what the service logs. */
export function logSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}
