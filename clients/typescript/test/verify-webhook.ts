// The check a receiver written in TypeScript makes, run by tests/test_typescript_client.py
// on deliveries the server's worker made:
//   node build/test/verify-webhook.js SECRET BODY_FILE "sha256=..."   prints true or false
import { readFile } from "node:fs/promises";

import { verify } from "@octokit/webhooks-methods";

const [secret, bodyFile, signature] = process.argv.slice(2);
if (!secret || !bodyFile || !signature) {
  console.error("usage: verify-webhook SECRET BODY_FILE SIGNATURE");
  process.exit(2);
}
// The raw body as received (UTF-8 JSON), never a re-serialised object.
const body = await readFile(bodyFile, "utf8");
console.log(String(await verify(secret, body, signature)));
