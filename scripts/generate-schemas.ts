// Writes the JSON Schemas generated from the zod models into schemas/ (`npm run schemas`).
// test/config/json-schema.test.ts fails when a committed file differs from what this writes.
import { writeFile } from 'node:fs/promises';
import { serializeJsonSchema, treeViewJsonSchema } from '../src/config/json-schema.js';

const target = new URL('../schemas/tree-view.schema.json', import.meta.url);
await writeFile(target, serializeJsonSchema(treeViewJsonSchema()));
console.error(`wrote ${target.pathname}`);
