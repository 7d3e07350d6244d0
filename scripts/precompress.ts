import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser downloads; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/;
/** Below this a compressed copy saves less than its own request overhead. */
const MIN_BYTES = 1024;
/**
 * The code and styles every page loads get brotli's best (quality 11: 20 % smaller than 9 for
 * this console, ~6 s of build on two cores); the maps' GeoJSON, read once and cached, quality 9.
 */
const bestFor = (file: string) => /\.(js|mjs|css|html)$/.test(file);

export interface PrecompressSummary {
  files: number;
  rawBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? filesUnder(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a built console, so the
 * server sends the smallest copy the browser accepts without compressing on each request. A
 * copy that would not save a tenth is not written.
 */
export async function precompress(dir: string): Promise<PrecompressSummary> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f));
  const summary: PrecompressSummary = { files: 0, rawBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return;
      const raw = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: bestFor(file) ? 11 : 9,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzip(raw, { level: 9 }),
      ]);
      const worth = (copy: Buffer) => copy.length < raw.length * 0.9;
      if (worth(br)) await writeFile(`${file}.br`, br);
      if (worth(gz)) await writeFile(`${file}.gz`, gz);
      summary.files += 1;
      summary.rawBytes += raw.length;
      summary.brotliBytes += worth(br) ? br.length : raw.length;
      summary.gzipBytes += worth(gz) ? gz.length : raw.length;
    }),
  );
  return summary;
}

/** Vite: pre-compresses the built console once the bundle is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'roost-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompress(outDir);
    },
  };
}
