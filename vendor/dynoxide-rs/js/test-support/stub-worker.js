/**
 * A stand-in for the dynoxide wasm Worker, used by the engine-client tests.
 *
 * Implements the browser Worker message interface (addEventListener("message"),
 * postMessage, terminate) over a tiny in-memory table store, so the client's
 * RPC, boot handshake, capability/persistence reporting, and seed/reset logic
 * can be tested without building wasm. It is deliberately not a faithful
 * DynamoDB - just enough of CreateTable/PutItem/GetItem/Query/Scan/DeleteTable/
 * ListTables for the client's behaviour to be observable.
 */

const DEFAULT_CAPABILITIES = [
  "CreateTable", "DeleteTable", "DescribeTable", "ListTables",
  "PutItem", "GetItem", "DeleteItem", "UpdateItem",
  "Query", "Scan", "BatchGetItem", "BatchWriteItem", "TransactGetItems",
];

function err(type, message) {
  return JSON.stringify({ __type: `com.test#${type}`, message });
}

function hashAttr(schema) {
  return schema.KeySchema.find((k) => k.KeyType === "HASH").AttributeName;
}
function rangeAttr(schema) {
  return schema.KeySchema.find((k) => k.KeyType === "RANGE")?.AttributeName;
}
function keyOf(schema, attrs) {
  const pk = JSON.stringify(attrs[hashAttr(schema)]);
  const ra = rangeAttr(schema);
  return ra ? `${pk}\u0000${JSON.stringify(attrs[ra])}` : pk;
}

/**
 * @param {object} [opts]
 * @param {number} [opts.contractVersion]
 * @param {string} [opts.persistenceMode] "opfs" | "memory"
 * @param {string[]} [opts.capabilities]
 * @param {Map} [opts.store] backing store, shareable across instances to
 *   simulate a reload against persisted data.
 * @param {number} [opts.openDelay] ms to defer the open reply, to exercise the
 *   queue-before-ready path.
 */
export function makeStubWorker({
  contractVersion = 1,
  persistenceMode = "opfs",
  capabilities = DEFAULT_CAPABILITIES,
  store = new Map(),
  openDelay = 0,
} = {}) {
  const listeners = new Set();
  const errorListeners = new Set();
  const messageErrorListeners = new Set();
  const emit = (data) => {
    for (const l of listeners) l({ data });
  };

  function runExecute(inner) {
    const { op, request } = inner;
    switch (op) {
      case "CreateTable": {
        if (store.has(request.TableName)) {
          return { ok: false, error: err("ResourceInUseException", "Table already exists") };
        }
        store.set(request.TableName, { schema: request, items: new Map() });
        return { ok: true, result: JSON.stringify({ TableDescription: { TableName: request.TableName } }) };
      }
      case "DeleteTable": {
        if (!store.has(request.TableName)) {
          return { ok: false, error: err("ResourceNotFoundException", "Table not found") };
        }
        store.delete(request.TableName);
        return { ok: true, result: JSON.stringify({}) };
      }
      case "ListTables":
        return { ok: true, result: JSON.stringify({ TableNames: [...store.keys()] }) };
      case "PutItem": {
        const t = store.get(request.TableName);
        if (!t) return { ok: false, error: err("ResourceNotFoundException", "Table not found") };
        t.items.set(keyOf(t.schema, request.Item), request.Item);
        return { ok: true, result: JSON.stringify({}) };
      }
      case "GetItem": {
        const t = store.get(request.TableName);
        if (!t) return { ok: false, error: err("ResourceNotFoundException", "Table not found") };
        const item = t.items.get(keyOf(t.schema, request.Key));
        return { ok: true, result: JSON.stringify(item ? { Item: item } : {}) };
      }
      case "Query": {
        const t = store.get(request.TableName);
        if (!t) return { ok: false, error: err("ResourceNotFoundException", "Table not found") };
        // Support only "pk = :placeholder" against the HASH key.
        const pkAttr = hashAttr(t.schema);
        const placeholder = (request.KeyConditionExpression || "").split("=")[1]?.trim();
        const wanted = JSON.stringify(request.ExpressionAttributeValues?.[placeholder]);
        const items = [...t.items.values()].filter(
          (i) => JSON.stringify(i[pkAttr]) === wanted,
        );
        return { ok: true, result: JSON.stringify({ Items: items, Count: items.length, ScannedCount: items.length }) };
      }
      case "Scan": {
        const t = store.get(request.TableName);
        if (!t) return { ok: false, error: err("ResourceNotFoundException", "Table not found") };
        const items = [...t.items.values()];
        return { ok: true, result: JSON.stringify({ Items: items, Count: items.length, ScannedCount: items.length }) };
      }
      default:
        return { ok: false, error: JSON.stringify({ __type: "com.dynoxide.wasm#UnsupportedOperation", message: `Unsupported: ${op}` }) };
    }
  }

  // A sketch of the engine's HTTP envelope, enough for the client's
  // dispatchHttp plumbing to be observable without building wasm. The real
  // rules live in src/wasm_api.rs and are tested there; this only has to be
  // shaped the same.
  const TARGET_PREFIX = "DynamoDB_20120810.";
  function runDispatchHttp({ target, body } = {}) {
    const bare = (type) => ({ __type: `com.amazon.coral.service#${type}` });
    if (body !== "" && body != null) {
      try {
        JSON.parse(body);
      } catch {
        return { status: 400, body: JSON.stringify(bare("SerializationException")) };
      }
    }
    if (target == null || !target.startsWith(TARGET_PREFIX)) {
      return { status: 400, body: JSON.stringify(bare("UnknownOperationException")) };
    }
    const op = target.slice(TARGET_PREFIX.length);
    if (!body) {
      return { status: 400, body: JSON.stringify(bare("SerializationException")) };
    }
    if (!capabilities.includes(op)) {
      return {
        status: 501,
        body: JSON.stringify({
          __type: "com.dynoxide.wasm#UnsupportedOperation",
          message: `Operation '${op}' is not supported by the wasm preview engine`,
        }),
      };
    }
    const out = runExecute({ op, request: JSON.parse(body) });
    return out.ok
      ? { status: 200, body: out.result }
      : { status: 400, body: out.error };
  }

  function handle(msg) {
    const { id, op, payload } = msg;
    if (op === "open") {
      const reply = () =>
        emit({ id, ok: true, result: JSON.stringify({ contractVersion, capabilities, persistenceMode }) });
      if (openDelay > 0) setTimeout(reply, openDelay);
      else queueMicrotask(reply);
      return;
    }
    if (op === "execute") {
      const out = runExecute(payload);
      queueMicrotask(() => emit({ id, ...out }));
      return;
    }
    if (op === "dispatchHttp") {
      queueMicrotask(() =>
        emit({ id, ok: true, result: JSON.stringify(runDispatchHttp(payload)) }),
      );
      return;
    }
    queueMicrotask(() => emit({ id, ok: false, error: `unknown op: ${op}` }));
  }

  return {
    addEventListener(type, h) {
      if (type === "message") listeners.add(h);
      else if (type === "error") errorListeners.add(h);
      else if (type === "messageerror") messageErrorListeners.add(h);
    },
    removeEventListener(type, h) {
      if (type === "message") listeners.delete(h);
      else if (type === "error") errorListeners.delete(h);
      else if (type === "messageerror") messageErrorListeners.delete(h);
    },
    postMessage(msg) {
      handle(msg);
    },
    terminate() {
      listeners.clear();
      errorListeners.clear();
      messageErrorListeners.clear();
    },
    // Simulate a hard Worker crash (wasm trap, failed .wasm fetch).
    __fireError(message = "crashed") {
      for (const l of errorListeners) l({ message });
    },
    // Simulate a reply that cannot be structured-cloned back to the main thread.
    __fireMessageError() {
      for (const l of messageErrorListeners) l({});
    },
    // Exposed for assertions / shared-store reload simulation.
    __store: store,
  };
}
