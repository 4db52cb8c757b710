/** `pnpm --filter @wbs/gateway openapi`: writes openapi/openapi.json from the route schemas. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, openApiJson } from '../src/openapi.ts';

await writeFile(OPENAPI_FILE, await openApiJson());
console.log(`wrote ${fileURLToPath(OPENAPI_FILE)}`);
