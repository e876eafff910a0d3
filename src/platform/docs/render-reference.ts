/**
 * A process of its own that renders the API reference (reference.ts's `renderApart`): reads the OpenAPI document on
 * stdin and writes the reference, `{ page, script }`, as JSON to stdout. React, Redoc and styled-components, and the
 * heap the render takes, live and end here, never in the server's process.
 */
import { render } from './reference.ts';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const reference = await render(JSON.parse(Buffer.concat(chunks).toString()));
process.stdout.write(JSON.stringify(reference));
