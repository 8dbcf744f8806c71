import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const PROJECT_MANIFEST = new URL('scratch-project.json', import.meta.url);
// npm and the installs it runs are bounded: a registry that stopped answering fails the test, not hangs it.
const NPM_TIMEOUT_MS = 150_000;

export interface ScratchProject {
  /** The project's folder, under the OS temp folder, outside the checkout. */
  readonly dir: string;
  /** Where the installed package sits: `<dir>/node_modules/task-association`. */
  readonly packageDir: string;
  remove(): Promise<void>;
}

/**
 * Packs the package as a fresh clone would (the files git knows of, committed or not yet, without
 * dist: `prepack` must build it), then installs the tarball into a new project with the host-side
 * tools as that project's own dependencies. Nothing of the checkout's node_modules leaks into it.
 */
export async function createScratchProject(): Promise<ScratchProject> {
  const root = await mkdtemp(join(tmpdir(), 'task-association-packed-'));
  try {
    const clone = join(root, 'clone');
    await copyRepositoryFiles(clone);
    // The clone builds with the checkout's own tools, as a developer's clone after `npm ci` would.
    await symlink(join(REPOSITORY, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const dir = join(root, 'project');
    await mkdir(dir);
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: clone,
      timeout: NPM_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as [{ filename: string }];
    const manifest = JSON.parse(await readFile(PROJECT_MANIFEST, 'utf8')) as {
      dependencies: Record<string, string>;
    };
    manifest.dependencies['task-association'] = `file:./${packed.filename}`;
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: dir,
      timeout: NPM_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return {
      dir,
      packageDir: join(dir, 'node_modules', 'task-association'),
      remove: () => rm(root, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** The files a clone of the checkout has (tracked, or new and not ignored), copied to `target`. */
async function copyRepositoryFiles(target: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPOSITORY,
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = stdout.split('\0').filter((file) => file !== '');
  for (const file of files) {
    await mkdir(join(target, dirname(file)), { recursive: true });
    // A file deleted in the working tree but not yet in git's index is simply not part of the clone.
    await cp(join(REPOSITORY, file), join(target, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}
