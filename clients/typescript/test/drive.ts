// Driven by tests/test_typescript_client.py against a live `homebase serve`, in a fresh
// workspace: ping, creations, a list read in two pages, two 400s and an email send, each
// typed by the generated schema. Any failed check throws (exit 1); on success it prints
// one JSON object of what it made, for the test to check from outside.
//   node build/test/drive.js BASE_URL API_KEY
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";

import { createHomebaseClient, type HomebaseClient, type Schema } from "../src/index.js";

const [baseUrl, apiKey] = process.argv.slice(2);
if (!baseUrl || !apiKey) {
  console.error("usage: drive BASE_URL API_KEY");
  process.exit(2);
}
const api: HomebaseClient = createHomebaseClient({ baseUrl, credential: apiKey });

function fieldErrors(envelope: Schema<"ErrorEnvelope">): Schema<"FieldError">[] {
  return envelope.error.details?.errors ?? [];
}

// Ping: the key's workspace and scopes.
const ping = await api.GET("/v1/ping");
assert.equal(ping.response.status, 200);
assert.ok(ping.data, "ping answered without a body");
assert.equal(ping.data.ok, true);
assert.equal(ping.data.credential, "api_key");
assert.ok(ping.data.scopes.includes("contacts:write"), ping.data.scopes.join(" "));
const workspace: string = ping.data.tenant_id;

// Creations, each with its own Idempotency-Key.
const names = ["Ana", "Bo", "Cy"];
const contacts: Schema<"Contact">[] = [];
for (const name of names) {
  const created = await api.POST("/v1/contacts", {
    params: { header: { "Idempotency-Key": randomUUID() } },
    body: { first_name: name, email: `${name.toLowerCase()}@example.com`, tags: ["ts"] },
  });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.ok(created.data);
  assert.equal(created.data.first_name, name);
  // Typed Contact | ContactNarrowed (the latter answers fields=); none was asked here.
  assert.ok("created_at" in created.data && "stage" in created.data, "the whole contact");
  contacts.push(created.data as Schema<"Contact">);
}
// The default of a member left out (stage) is in the answer.
assert.equal(contacts[0]?.stage, "LEAD");

// The list in pages of two, newest first: two pages through the cursor.
const first = await api.GET("/v1/contacts", { params: { query: { limit: 2, tag: "ts" } } });
assert.ok(first.data, JSON.stringify(first.error));
assert.equal(first.data.data.length, 2);
assert.equal(first.data.has_more, true);
const cursor = first.data.next_cursor;
assert.ok(cursor, "a first page with more has a next_cursor");
const second = await api.GET("/v1/contacts", { params: { query: { limit: 2, tag: "ts", cursor } } });
assert.ok(second.data, JSON.stringify(second.error));
assert.equal(second.data.has_more, false);
assert.equal(second.data.next_cursor, null);
const listed = [...first.data.data, ...second.data.data].map((item) => item.id);
assert.deepEqual(listed, contacts.map((contact) => contact.id).reverse());

// A 400 in the body: the envelope names the field, where it is and why.
const refused = await api.POST("/v1/contacts", {
  params: { header: { "Idempotency-Key": randomUUID() } },
  body: { first_name: "Dee", email: "not an address" },
});
assert.equal(refused.response.status, 400);
assert.equal(refused.data, undefined);
assert.ok(refused.error);
assert.equal(refused.error.error.code, "validation_failed");
assert.match(refused.error.error.request_id, /^req_/);
assert.equal(refused.error.error.request_id, refused.response.headers.get("X-Request-Id"));
const [emailError, ...others] = fieldErrors(refused.error);
assert.deepEqual(others, []);
assert.ok(emailError);
assert.equal(emailError.field, "email");
assert.equal(emailError.in, "body");
assert.ok(emailError.message.length > 0 && emailError.type.length > 0, JSON.stringify(emailError));

// A 400 in the query string.
const tooMany = await api.GET("/v1/contacts", { params: { query: { limit: 500 } } });
assert.equal(tooMany.response.status, 400);
assert.ok(tooMany.error);
assert.deepEqual(
  fieldErrors(tooMany.error).map((item) => [item.field, item.in]),
  [["limit", "query"]],
);

// An email to the first contact: accepted and recorded.
const recipient = contacts[0];
assert.ok(recipient);
const sent = await api.POST("/v1/messages", {
  params: { header: { "Idempotency-Key": randomUUID() } },
  body: { channel: "EMAIL", contact_id: recipient.id, subject: "Welcome", body: "Hello Ana" },
});
assert.equal(sent.response.status, 201, JSON.stringify(sent.error));
assert.ok(sent.data);
assert.equal(sent.data.channel, "EMAIL");
assert.equal(sent.data.contact_id, recipient.id);
const read = await api.GET("/v1/messages/{id}", { params: { path: { id: sent.data.id } } });
assert.ok(read.data, JSON.stringify(read.error));
assert.equal(read.data.id, sent.data.id);
assert.equal(read.data.subject, "Welcome");

console.log(
  JSON.stringify({
    workspace,
    contacts: contacts.map((contact) => contact.id),
    refused_request_id: refused.error.error.request_id,
    message: sent.data.id,
  }),
);
