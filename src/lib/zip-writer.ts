import zlib from 'node:zlib';

/** A zip file would need the zip64 extensions (an entry or the archive past 4 GiB); this writer has none. */
export class ZipTooLargeError extends Error {
  constructor() {
    super('the zip file would exceed 4 GiB');
    this.name = 'ZipTooLargeError';
  }
}

/** The consumer of the zip's bytes; it resolves once it has taken them (backpressure). */
export type ZipOutput = (bytes: Buffer) => Promise<void>;

const LIMIT_32 = 0xffff_ffff;
/** Bit 3: sizes and CRC follow the data (it is streamed); bit 11: names are UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** zlib.crc32 exists from Node 20.15; older 20.x releases (allowed by engines) get the table version. */
function crc32(bytes: Uint8Array, previous: number): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(bytes, previous);
  let c = ~previous >>> 0;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function dosDateTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    day: ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/**
 * A streaming zip writer (PKZIP 2.0: deflate, sizes in a data descriptor after each entry, as archiver and
 * Excel itself write streamed parts). One entry is open at a time; its bytes are deflated by zlib off the
 * event loop and handed to `output` as they come, so memory holds zlib's buffers, never an entry. No zip64:
 * past 4 GiB it fails with ZipTooLargeError rather than write a file no reader opens.
 */
export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private open: { entry: Entry; deflate: zlib.DeflateRaw; pumped: Promise<void> } | null = null;
  private readonly stamp = dosDateTime(new Date());

  constructor(private readonly output: ZipOutput) {}

  private async emit(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (this.offset > LIMIT_32) throw new ZipTooLargeError();
    await this.output(bytes);
  }

  async startEntry(name: string): Promise<void> {
    if (this.open) await this.endEntry();
    const entry: Entry = { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.day, 12);
    // CRC and sizes (14–25) stay 0: the data descriptor carries them.
    header.writeUInt16LE(entry.name.length, 26);
    await this.emit(Buffer.concat([header, entry.name]));
    const deflate = zlib.createDeflateRaw({ level: 6 });
    // Its failures reach the writer through `pumped`; a late one (after a stop) must not end the process.
    deflate.on('error', () => undefined);
    const pumped = (async () => {
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        entry.compressed += chunk.length;
        await this.emit(chunk);
      }
    })();
    // Observed by write() and endEntry(); a failed output also ends (destroys) the deflate stream.
    pumped.catch(() => undefined);
    this.entries.push(entry);
    this.open = { entry, deflate, pumped };
  }

  /** Uncompressed bytes written to the open entry so far (0 when none is open). */
  get entryBytes(): number {
    return this.open?.entry.size ?? 0;
  }

  /** Adds bytes to the open entry; resolves once zlib can take more (its output reached `output`). */
  async write(data: string | Buffer): Promise<void> {
    const open = this.open;
    if (!open) throw new Error('no zip entry is open');
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.length === 0) return;
    open.entry.crc = crc32(bytes, open.entry.crc);
    open.entry.size += bytes.length;
    if (open.entry.size > LIMIT_32) throw new ZipTooLargeError();
    if (open.deflate.write(bytes)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        open.deflate.off('drain', done);
        open.deflate.off('close', done);
        resolve();
      };
      open.deflate.on('drain', done);
      open.deflate.on('close', done);
      open.pumped.then(done, reject);
    });
    // The output failed while zlib was full: its error, not a silent stop.
    if (open.deflate.destroyed) await open.pumped;
  }

  async endEntry(): Promise<void> {
    const open = this.open;
    if (!open) return;
    this.open = null;
    open.deflate.end();
    await open.pumped;
    const { entry } = open;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.emit(descriptor);
  }

  /** Closes the open entry and writes the central directory: the zip is complete. */
  async finish(): Promise<void> {
    await this.endEntry();
    const start = this.offset;
    const records = this.entries.map((entry) => {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(VERSION, 4);
      record.writeUInt16LE(VERSION, 6);
      record.writeUInt16LE(FLAGS, 8);
      record.writeUInt16LE(DEFLATE, 10);
      record.writeUInt16LE(this.stamp.time, 12);
      record.writeUInt16LE(this.stamp.day, 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      // Extra field, comment, disk, attributes (30–41) stay 0.
      record.writeUInt32LE(entry.offset, 42);
      return Buffer.concat([record, entry.name]);
    });
    const directory = Buffer.concat(records);
    if (this.entries.length > 0xffff || start + directory.length > LIMIT_32) throw new ZipTooLargeError();
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.emit(Buffer.concat([directory, end]));
  }

  /** Stops where it is (the bytes written so far are not a complete zip). */
  destroy(): void {
    this.open?.deflate.destroy();
    this.open = null;
  }
}
