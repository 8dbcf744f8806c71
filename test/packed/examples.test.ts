import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../src/store/scratch.js';
import { runSqlFile } from '../../src/store/script.js';
import { useBrowser } from '../support/browser.js';
import { SERVER_URL } from '../support/database.js';
import { freePort } from '../support/ports.js';
import { binds, declarationExamples, EXAMPLE_CONTEXT, KNOWN_IMPORTS, uses } from './declaration-examples.js';
import { type CodeBlock, documentationFiles, htmlBlocks, typescriptBlocks } from './markdown-blocks.js';
import { createScratchProject, REPOSITORY, type ScratchProject } from './scratch-project.js';

// The class check for "the package as its users install it": the packed tarball, installed into a
// project of its own, with every TypeScript block of the README and of the docs it links to
// typechecked under `strict` and, when it runs against a database or a server, run there.
// Block words (```ts server=/path, fragment, ...) are described in markdown-blocks.ts.

const runFile = promisify(execFile);
// Generous bounds: on a loaded 2-core machine a script that takes 1 s alone can take ten times that.
const RUN_TIMEOUT_MS = 60_000;
const SERVER_START_MS = 40_000;
const TSC = join(REPOSITORY, 'node_modules', '.bin', 'tsc');
const SCOPE = [1, 1, 1] as const;

const docs = await documentationFiles(REPOSITORY);
const blocks = [...docs].flatMap(([source, text]) => typescriptBlocks(text, source));

/** The file each block is written to in the project; a fragment carries the block it continues. */
interface ExampleFile {
  readonly block: CodeBlock;
  readonly name: string;
  readonly code: string;
}

const files: ExampleFile[] = [];
for (const block of blocks) {
  const stem = `${block.source.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}-${block.line}`;
  const previous = files.findLast(
    (file) => file.block.source === block.source && file.block.kind.type !== 'fragment',
  );
  switch (block.kind.type) {
    case 'file':
      files.push({ block, name: block.kind.name, code: block.code });
      break;
    case 'vitest':
      files.push({ block, name: `${stem}.test.ts`, code: block.code });
      break;
    case 'fragment':
      if (previous === undefined)
        throw new Error(`${block.source}:${block.line}: a fragment needs a block above it`);
      files.push({ block, name: `${stem}.fragment.ts`, code: `${previous.code}\n${block.code}` });
      break;
    default:
      files.push({ block, name: `${stem}.ts`, code: block.code });
  }
}
const where = (file: ExampleFile) => `${file.block.source}:${file.block.line} (${file.name})`;

const browser = useBrowser();

let project: ScratchProject;
let scratch: ScratchDatabase;
let typecheck = '';
const env = () => ({
  ...process.env,
  DATABASE_URL: scratch.url,
  // The gallery examples sign their URLs with this; the README tells hosts to set it.
  CAROULSEL_SECRET: 'examples-check-secret-0123456789',
});

beforeAll(async () => {
  project = await createScratchProject();
  const database = async () => {
    scratch = await createScratchDatabase(SERVER_URL, 'packed_examples');
    await runSqlFile(scratch.url, pathToFileURL(join(project.packageDir, 'examples', 'host-schema.sql')));
  };
  // One compiler run checks every block and emits the JavaScript the runs below start (errors or not).
  const compile = async () => {
    for (const file of files) await writeFile(join(project.dir, file.name), `${file.code}\n`);
    await writeDeclarationExamples();
    await writeFile(join(project.dir, 'tsconfig.json'), JSON.stringify(PROJECT_TSCONFIG, null, 2));
    typecheck = await runFile(TSC, ['-p', 'tsconfig.json'], { cwd: project.dir, timeout: 60_000 }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout || String(error),
    );
  };
  await Promise.all([database(), compile()]);
}, 300_000);

afterAll(async () => {
  await scratch?.drop();
  await project?.remove();
});

const PROJECT_TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    skipLibCheck: true,
    outDir: 'out',
    rootDir: '.',
  },
  include: ['*.ts'],
};

/** Runs a command of the project (a bin of its own node_modules), bounded; resolves with its output. */
async function inProject(command: string, args: readonly string[], timeout = RUN_TIMEOUT_MS) {
  return runFile(command, [...args], { cwd: project.dir, env: env(), timeout, maxBuffer: 16 * 1024 * 1024 });
}

const bin = (name: string) => join(project.dir, 'node_modules', '.bin', name);

describe('the packed package, installed in a project of its own', () => {
  it('finds the documentation: the README and the docs it links to, with TypeScript blocks', () => {
    expect(docs.has('README.md')).toBe(true);
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((file) => file.name === 'drizzle.config.ts')).toBe(true);
  });

  it('drizzle-kit push with the README config, then db sync --dry-run finds nothing to do', async () => {
    await inProject(bin('drizzle-kit'), ['push'], 60_000);
    const { stdout } = await inProject(bin('task-association'), ['db', 'sync', '--dry-run', '--json']);
    expect(JSON.parse(stdout)).toEqual({ statements: [], applied: false });
    const tables = await scratch.db.query<{ name: string }>(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ? ORDER BY 1',
      ['app_oper%'],
    );
    expect(tables.map((table) => table.name)).toEqual([
      'app_oper',
      'app_oper_grupo',
      'app_oper_grupo_metrica',
      'app_oper_n_oper_grupo',
    ]);
  }, 120_000);

  it("the shipped example files' $schema resolves in a project that copies them to its root", async () => {
    for (const name of ['tree-view.json', 'install.json']) {
      const example = JSON.parse(await readFile(join(project.packageDir, 'examples', name), 'utf8'));
      await expect(
        access(join(project.dir, example.$schema)),
        `${name}: ${example.$schema}`,
      ).resolves.toBeUndefined();
    }
  });

  it('every TypeScript block typechecks under strict against the installed package', () => {
    // Each error names its file; the file names its block's markdown file and line.
    const named = typecheck.replace(/^([\w.-]+\.ts)\(/gm, (_, name: string) => {
      const file = files.find((candidate) => candidate.name === name);
      const example = exampleFiles.get(name);
      return `${file !== undefined ? where(file) : example !== undefined ? `${example} (${name})` : name}(`;
    });
    expect(named).toBe('');
  });

  it('ships the sources its source maps and declaration maps point at', async () => {
    const maps = (await readdir(join(project.packageDir, 'dist'), { recursive: true })).filter((file) =>
      file.endsWith('.map'),
    );
    // A .js.map and a .d.ts.map per module.
    expect(maps.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const map of maps) {
      const file = join(project.packageDir, 'dist', map);
      const { sources } = JSON.parse(await readFile(file, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        await access(join(file, '..', source)).catch(() => missing.push(`${map} → ${source}`));
      }
    }
    expect(missing).toEqual([]);
  });

  // A host reads the README in node_modules: the guides it sends them to must be there too.
  it('ships every guide the README links to', async () => {
    const readme = await readFile(join(project.packageDir, 'README.md'), 'utf8');
    const guides = [
      ...new Set([...readme.matchAll(/\]\((docs\/[\w-]+\.md)(#[\w-]*)?\)/g)].map((m) => m[1] ?? '')),
    ];
    expect(guides).toContain('docs/association-screen.md');
    const missing: string[] = [];
    for (const guide of guides)
      await access(join(project.packageDir, guide)).catch(() => missing.push(guide));
    expect(missing).toEqual([]);
  });

  // The bin runs the CLI bundled at build (dist/bundle/): from the install, it finds the package's
  // files (the page, the sample images) and the dependencies it leaves out of the bundle (sharp).
  it('the installed bin serves the home page, the list and a thumbnail', async () => {
    const server = await startServer(bin('task-association'), '/caroulsel/data', (port) => [
      'serve',
      '--port',
      String(port),
      '--cache',
      join(project.dir, 'media-cache'),
    ]);
    try {
      expect((await fetch(`${server.origin}/`)).status, server.output()).toBe(200);
      const { items } = (await (await fetch(`${server.origin}/caroulsel/data`)).json()) as {
        items: { previewUrl: string }[];
      };
      const thumbnail = await fetch(server.origin + (items[0]?.previewUrl ?? ''));
      expect(thumbnail.status, server.output()).toBe(200);
      expect(server.output()).toContain('serving the home gallery on');
    } finally {
      await server.stop();
    }
    // The command line ships once, as the bundle the bin runs: not also as tsc's modules.
    for (const folder of ['dist/cli', 'dist/demo', 'src/cli', 'src/demo']) {
      await expect(access(join(project.packageDir, folder)), folder).rejects.toThrow(/ENOENT/);
    }
  });

  it("holds one copy of drizzle-orm, the project's own: the package takes it as a peer", async () => {
    await expect(access(join(project.packageDir, 'node_modules', 'drizzle-orm'))).rejects.toThrow();
    const { stdout } = await inProject('npm', ['ls', 'drizzle-orm', '--all', '--json']);
    const tree = JSON.parse(stdout) as {
      dependencies: Record<string, { version: string; dependencies?: Record<string, { version: string }> }>;
    };
    expect(tree.dependencies['drizzle-orm']?.version).toBe('0.44.0');
    expect(tree.dependencies['task-association']?.dependencies?.['drizzle-orm']?.version).toBe('0.44.0');
  });

  // One block at a time: side by side (a dozen processes and a browser) they slowed the other test
  // files on a loaded 2-core machine past their time limits, for no measurable gain there.
  describe('and each block that runs, runs', () => {
    beforeAll(async () => {
      await inProject(
        bin('task-association'),
        ['apply', '--install', join(project.packageDir, 'examples', 'install.json'), '--yes'],
        60_000,
      );
      await insertExampleRows(scratch, project);
    }, 120_000);

    it(
      "the gallery guide's page, on the Node http mounting block, shows every sample image in Chromium",
      async ({ expect }) => {
        const mount = files.find(
          (file) =>
            file.block.kind.type === 'server' && file.code.includes('createServer(toNodeListener(gallery))'),
        );
        const markup = [...docs]
          .flatMap(([source, text]) => htmlBlocks(text, source))
          .find((block) => block.code.includes('mountGallery'));
        if (mount === undefined || markup === undefined)
          throw new Error('the guides have no Node http gallery mount or page');
        const server = await startServer(join('out', mount.name.replace(/\.ts$/, '.js')), '/caroulsel/data');
        const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          // The host's own page is the guide's markup at `/`; everything else comes from the example server.
          await page.route(`${server.origin}/`, (route) =>
            route.fulfill({
              contentType: 'text/html; charset=utf-8',
              body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body><main>${markup.code}</main></body></html>`,
            }),
          );
          await page.goto(`${server.origin}/`);
          await page.getByRole('list', { name: 'Image gallery' }).waitFor({ timeout: SERVER_START_MS });
          for (const title of await sampleImageNames(project)) {
            const image = page.getByRole('img', { name: title, exact: true });
            await image.scrollIntoViewIfNeeded();
            await expect
              .poll(
                () =>
                  image.evaluate(
                    (node) =>
                      (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0,
                  ),
                {
                  message: `${title}\n${server.output()}`,
                  timeout: SERVER_START_MS,
                },
              )
              .toBe(true);
          }
        } finally {
          await context.close();
          await server.stop();
        }
      },
      2 * SERVER_START_MS + 20_000,
    );

    for (const file of files) {
      const kind = file.block.kind;
      if (kind.type === 'script') {
        it(
          `${where(file)} runs and exits 0`,
          async () => {
            await inProject(process.execPath, [join('out', file.name.replace(/\.ts$/, '.js'))]);
          },
          RUN_TIMEOUT_MS + 10_000,
        );
      } else if (kind.type === 'server') {
        it(
          `${where(file)} serves GET ${kind.paths.join(', ')} with 200`,
          async ({ expect }) => {
            const served = await serveAndGet(join('out', file.name.replace(/\.ts$/, '.js')), kind.paths);
            expect(served.statuses, served.output).toEqual(kind.paths.map(() => 200));
          },
          SERVER_START_MS + 20_000,
        );
      } else if (kind.type === 'vitest') {
        it(
          `${where(file)} passes under vitest`,
          async () => {
            await inProject(bin('vitest'), ['run', file.name]);
          },
          RUN_TIMEOUT_MS + 10_000,
        );
      }
    }
  });
});

/** Generated example file name → the `.d.ts` and line its `@example` comes from. */
const exampleFiles = new Map<string, string>();

/**
 * Every `@example` of the shipped `.d.ts` files, as a file of its own that typechecks with the
 * others: the names it uses are imported from its own module (by path, as its declaration file sits
 * beside it) or else from the package's entry points, and the usual context (`db`, `scope`, ...) is
 * declared when it uses it without binding it.
 */
async function writeDeclarationExamples(): Promise<void> {
  const exportsOf = async (file: string) =>
    Object.keys((await import(pathToFileURL(join(project.packageDir, file)).href)) as object);
  const entries = await Promise.all(
    [
      ['task-association', 'dist/index.js'],
      ['task-association/model', 'dist/model.js'],
      ['task-association/database', 'dist/database.js'],
      ['task-association/tree', 'dist/tree.js'],
      ['task-association/installer', 'dist/installer.js'],
      ['task-association/sync', 'dist/sync.js'],
      ['task-association/schema', 'dist/schema.js'],
      ['task-association/gallery', 'dist/gallery.js'],
      ['task-association/testing', 'dist/model/testing.js'],
    ].map(async ([specifier, file]) => [specifier ?? '', await exportsOf(file ?? '')] as const),
  );
  const examples = await declarationExamples(project.packageDir);
  for (const [index, example] of examples.entries()) {
    const ownPath = example.source.replace(/\.d\.ts$/, '.js');
    const own = await exportsOf(ownPath);
    const imports = new Map<string, string[]>();
    const add = (from: string, name: string) => imports.set(from, [...(imports.get(from) ?? []), name]);
    const candidates = new Set([
      ...own,
      ...entries.flatMap(([, names]) => names),
      ...Object.keys(KNOWN_IMPORTS),
    ]);
    for (const name of candidates) {
      if (!uses(example.code, name) || binds(example.code, name)) continue;
      const from = own.includes(name)
        ? `./node_modules/task-association/${ownPath}`
        : (KNOWN_IMPORTS[name] ?? entries.find(([, names]) => names.includes(name))?.[0] ?? '');
      add(from, name);
    }
    const context = Object.entries(EXAMPLE_CONTEXT)
      .filter(([name]) => uses(example.code, name) && !binds(example.code, name) && !candidates.has(name))
      .map(([name, type]) => `declare const ${name}: ${type};`);
    const name = `dts-example-${index + 1}.ts`;
    exampleFiles.set(name, `${example.source}:${example.line}`);
    const header = [...imports].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`);
    await writeFile(
      join(project.dir, name),
      [...header, ...context, example.code, 'export {};', ''].join('\n'),
    );
  }
}

/**
 * The rows the README's examples name: scope 1/1/1's task sheet 42, group 12 and activity 310 linked
 * to it, and a host gallery table `app_galeria` whose images are the package's sample images.
 */
async function insertExampleRows(database: ScratchDatabase, installed: ScratchProject): Promise<void> {
  const { db } = database;
  const [EMPRESA, FILIAL, LOCAL] = SCOPE;
  await db.execute(
    'INSERT INTO app_unidade_medida (SEQ_DB, EMPRESA, FILIAL, LOCAL, CODIGO, DESCRICAO) VALUES (5, ?, ?, ?, ?, ?)',
    [EMPRESA, FILIAL, LOCAL, 'HA', 'Hectares'],
  );
  await db.execute(
    'INSERT INTO app_etapa (SEQ_DB, EMPRESA, FILIAL, LOCAL, DESCRICAO) VALUES (3, ?, ?, ?, ?)',
    [EMPRESA, FILIAL, LOCAL, 'Soil preparation'],
  );
  await db.execute(
    `INSERT INTO app_folha_tarefa (SEQ_DB, EMPRESA, FILIAL, LOCAL, DATA, TALHAO, QTD_PESSOAS) VALUES (42, ?, ?, ?, '2026-11-20', 'T-07', 6)`,
    [EMPRESA, FILIAL, LOCAL],
  );
  await db.execute(
    `INSERT INTO MO_OPER_GRUPO (SEQ_DB, EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO, DESCRICAO, ETAPA_SEQ_DB) VALUES (12, ?, ?, ?, 1, 1, 'G-SOIL', 'Soil preparation', 3)`,
    [EMPRESA, FILIAL, LOCAL],
  );
  await db.execute(
    `INSERT INTO MO_OPER (SEQ_DB, EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, CODIGO, DESCRICAO, UNIDADE_MEDIDA_SEQ_DB, INDICE) VALUES (310, ?, ?, ?, 1, 1, 'A-DISC', 'Disc ploughing', 5, '1.25')`,
    [EMPRESA, FILIAL, LOCAL],
  );
  await db.execute(
    'INSERT INTO MO_OPER_MO_OPER_GRUPO (EMPRESA, FILIAL, LOCAL, ID, INS_USUARIO_SEQ_DB, OPER_GRUPO_SEQ_DB, OPER_SEQ_DB) VALUES (?, ?, ?, 1, 1, 12, 310)',
    [EMPRESA, FILIAL, LOCAL],
  );
  await db.execute(
    'CREATE TABLE app_galeria (SEQ_DB int PRIMARY KEY, DESCRICAO varchar(100), IMAGEM varchar(300) NOT NULL)',
  );
  const images = join(installed.packageDir, 'examples', 'images');
  await mkdir(join(installed.dir, 'config'), { recursive: true });
  // The testing example reads the reader's own TREE_VIEW file from config/.
  await copyFile(
    join(installed.packageDir, 'examples', 'tree-view.json'),
    join(installed.dir, 'config', 'tree-view.json'),
  );
  const names = await sampleImageNames(installed);
  for (const [index, name] of names.entries()) {
    await db.execute('INSERT INTO app_galeria (SEQ_DB, DESCRICAO, IMAGEM) VALUES (?, ?, ?)', [
      index + 1,
      name,
      join(images, name),
    ]);
  }
}

/** The package's sample images (examples/images), by file name: the gallery's rows and titles. */
async function sampleImageNames(installed: ScratchProject): Promise<string[]> {
  const names = await readdir(join(installed.packageDir, 'examples', 'images'));
  return names.filter((name) => /\.(jpe?g|png|webp)$/i.test(name)).sort();
}

/** A server example, running on a free port of the loopback interface. */
interface RunningServer {
  readonly origin: string;
  /** What it printed so far, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a server example (or the bin, given its arguments for the port) and waits (bounded) until
 * `GET path` answers, whatever the status.
 */
async function startServer(
  script: string,
  path: string,
  args: (port: number) => readonly string[] = () => [],
): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [script, ...args(port)], {
    cwd: project.dir,
    env: { ...env(), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
  };
  try {
    const deadline = Date.now() + SERVER_START_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${output}`);
      const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) }).catch(
        () => undefined,
      );
      if (response !== undefined) {
        await response.arrayBuffer();
        return { origin, output: () => output, stop };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `${script} did not answer on port ${port} within ${SERVER_START_MS / 1000} s:\n${output}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts a server example and returns the status of `GET` each path (with the example's session
 * cookie), and what the server printed.
 */
async function serveAndGet(
  script: string,
  paths: readonly string[],
): Promise<{ statuses: number[]; output: string }> {
  const server = await startServer(script, paths[0] ?? '/');
  try {
    const statuses: number[] = [];
    for (const path of paths) {
      const response = await fetch(`${server.origin}${path}`, {
        headers: { cookie: 'session=example' },
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    return { statuses, output: server.output() };
  } finally {
    await server.stop();
  }
}
