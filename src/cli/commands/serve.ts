import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Secrets } from '../../gallery/token.js';
import { startGalleryServer } from '../../http/server.js';
import { TaskAssociationError } from '../../model/errors.js';
import { parseCommandLine, parsePort, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { type CliIo, say } from '../io.js';

const options = {
  port: { type: 'string', default: '3000' },
  images: { type: 'string' },
  cache: { type: 'string' },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
} as const;

/**
 * `$CAROULSEL_SECRET`, comma-separated for rotation (the first signs); unset: random per process.
 * Checked by the gallery's own rule here, so that its error names the variable (and which of its
 * secrets), not an option the operator never wrote.
 */
function secretsFrom(io: CliIo): string[] | undefined {
  const value = io.env.CAROULSEL_SECRET;
  if (value === undefined || value.trim() === '') return undefined;
  const secrets = value.split(',').map((secret) => secret.trim());
  const parsed = Secrets.safeParse(secrets);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const at = issue?.path[0];
    const which =
      typeof at === 'number' && secrets.length > 1
        ? ` (secret ${at + 1} of ${secrets.length}, comma-separated)`
        : '';
    throw new TaskAssociationError(
      'SERVE_SECRET',
      `$CAROULSEL_SECRET${which}: ${issue?.message ?? 'invalid'}`,
      {
        path: 'CAROULSEL_SECRET',
      },
    );
  }
  return parsed.data;
}

export const command: Command = {
  usage: 'serve [--port 3000] [--images DIR] [--cache DIR | --redis URL [--redis-prefix P]]',
  summary:
    'Serves the home gallery and its page on 127.0.0.1 until Ctrl-C. URLs are signed with $CAROULSEL_SECRET (comma-separated to rotate; unset: random per run).',
  options: [
    ['--port PORT', 'the port to serve on (default 3000; 0 picks a free one)'],
    ['--images DIR', 'the folder of images to show (default the bundled examples/images)'],
    ['--cache DIR', "the media cache folder (default the user's cache folder)"],
    [
      '--redis URL',
      'a Redis shared by several nodes (redis://127.0.0.1:6379): renditions cached there, one node generates each, generations counted under <prefix>generations',
    ],
    ['--redis-prefix P', 'prefix of the Redis keys (default caroulsel:media:)'],
  ],
  example: 'CAROULSEL_SECRET=change-me-16-chars-or-more task-association serve --port 8080 --images ./photos',
  stopsOnSignal: true,
  async run(args, io) {
    const { values } = parseCommandLine(args, options);
    // Two places for the renditions: one would be dropped without a word.
    if (values.cache !== undefined && values.redis !== undefined)
      throw new UsageError(
        '--cache and --redis both name where renditions are kept: give one (--redis for several nodes)',
      );
    if (values['redis-prefix'] !== undefined && values.redis === undefined)
      throw new UsageError(
        '--redis-prefix names the prefix of the keys in a Redis: give --redis URL with it',
      );
    const port = parsePort(values.port ?? '3000');
    const imagesDir = values.images === undefined ? undefined : resolve(values.images);
    if (imagesDir !== undefined && !(await stat(imagesDir).catch(() => undefined))?.isDirectory()) {
      throw new TaskAssociationError('SERVE_IMAGES', `the images folder ${imagesDir} does not exist`, {
        path: '--images',
      });
    }
    const secrets = secretsFrom(io);
    if (secrets === undefined) say(io, 'CAROULSEL_SECRET is not set: using a random secret for this run');
    const server = await startGalleryServer({
      port,
      ...(imagesDir === undefined ? {} : { imagesDir }),
      ...(values.cache === undefined ? {} : { cacheDir: resolve(values.cache) }),
      ...(values.redis === undefined ? {} : { redisUrl: values.redis }),
      ...(values['redis-prefix'] === undefined ? {} : { redisKeyPrefix: values['redis-prefix'] }),
      ...(secrets === undefined ? {} : { secrets }),
      logger: { warn: (message) => say(io, message) },
    });
    say(io, `serving the home gallery on ${server.url} (Ctrl-C stops)`);
    // Without a stop signal (the installed binary) the open server keeps the process running until killed.
    await (io.stopSignal ?? new Promise<never>(() => {}));
    await server.close();
    say(io, 'stopped');
    return 0;
  },
};
