import { PassThrough } from 'node:stream';

/** The file store stopped reading (it failed, or the export was aborted): nothing more can be written. */
export class PipeClosedError extends Error {
  constructor() {
    super('the file store stopped reading the export');
    this.name = 'PipeClosedError';
  }
}

/**
 * The bytes between an export and the file store: the export writes, the store reads `stream` as it writes
 * the file. The export waits whenever the store lags behind, so at most about a page of rows (plus the
 * stream's buffer) is ever in memory, whatever the size of the file.
 */
export class BytePipe {
  readonly stream = new PassThrough({ highWaterMark: 256 * 1024 });

  constructor() {
    // A failure reaches the export through caughtUp() and the store through its read loop; an 'error'
    // event without a listener would instead take the process down.
    this.stream.on('error', () => undefined);
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.stream.destroyed) throw new PipeClosedError();
    this.stream.write(bytes);
    await this.caughtUp();
  }

  /** Resolves once the store has read what is buffered (down to the stream's mark); rejects if it stopped. */
  async caughtUp(): Promise<void> {
    while (!this.stream.destroyed && this.stream.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('close', done);
          resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('close', done);
      });
    }
    if (this.stream.destroyed) throw new PipeClosedError();
  }

  end(): void {
    this.stream.end();
  }

  /** Ends the file with an error: the store's write fails and keeps nothing of it. */
  abort(reason: Error): void {
    this.stream.destroy(reason);
  }
}
