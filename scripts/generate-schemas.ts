// Writes the JSON Schemas generated from the zod models into schemas/ (`npm run schemas`).
// test/model/json-schema.test.ts fails when a committed file differs from what this writes.
import { writeFile } from 'node:fs/promises';
import { installJsonSchema } from '../src/installer/json-schema.js';
import { serializeJsonSchema, treeViewJsonSchema } from '../src/model/json-schema.js';

const target = new URL('../schemas/tree-view.schema.json', import.meta.url);
await writeFile(target, serializeJsonSchema(treeViewJsonSchema()));
console.error(`wrote ${target.pathname}`);

const install = new URL('../schemas/install.schema.json', import.meta.url);
await writeFile(install, serializeJsonSchema(installJsonSchema()));
console.error(`wrote ${install.pathname}`);
