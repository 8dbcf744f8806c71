import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startGalleryServer } from '../../http/server.js';
import { TaskAssociationError } from '../../model/errors.js';
import { parseCommandLine, parsePort } from '../args.js';
import type { Command } from '../command.js';
import { type CliIo, say } from '../io.js';

const options = {
  port: { type: 'string', default: '3000' },
  images: { type: 'string' },
  cache: { type: 'string' },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
} as const;

/** `$CAROULSEL_SECRET`, comma-separated for rotation (the first signs); unset: random per process. */
function secretsFrom(io: CliIo): string[] | undefined {
  const value = io.env.CAROULSEL_SECRET;
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((secret) => secret.trim());
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
  async run(args, io) {
    const { values } = parseCommandLine(args, options);
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
    await (io.stopSignal ?? new Promise<void>(() => {}));
    await server.close();
    say(io, 'stopped');
    return 0;
  },
};
