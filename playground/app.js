// The utter playground: the agent's files in the page, utter's checker (the
// WebAssembly module built from crates/utter-playground) on every edit.
// Every string from the agent or from utter is written as text
// (textContent, option labels, srcdoc of a sandboxed frame): never markup.

const EXAMPLE = {
  "memory.yml": `# Project memory: readable by every skill.
customer_name:
  type: text
  seed: true
`,
  "responses.yml": `responses:
  utter_greet:
    - text: Hello {customer_name}, how can I help?
      condition: session.project.customer_name != None
    - text: Hello, how can I help?
`,
  "skills/card_replace/memory.yml": `schema:
  public:
    replacement_reason:
      type: categorical
      enum_values: [lost, stolen, damaged]
  private:
    replacement_fee:
      type: float
`,
  "skills/card_replace/responses.yml": `responses:
  utter_card_replacement_fee:
    - text: Standard replacement is free.
    - text: A fee of \${session.card_replace.replacement_fee} applies for a lost card.
      condition: 'session.card_replace.replacement_reason == "lost" and session.card_replace.replacement_fee > 0'
      metadata:
        rephrase: true
    - text: No fee for cards reported stolen.
      condition: 'session.card_replace.replacement_reason == "stolen"'
`,
  "skills/card_replace/skill.md": `---
name: Card Replace
description: Replace a card that was lost, stolen or damaged
utter:
  - utter_card_replacement_fee:
      on: activate
---

Tell the customer what the replacement costs.
`,
  "utter.yml": `# utter's settings (docs/format.md, "Lint levels"): the fee is a float,
# delivered as Python writes it ($7.5); real amounts belong in a text entry.
lints:
  utter.validation.placeholder.float_money: allow
`,
};

const EXAMPLE_STATE = {
  files: EXAMPLE,
  dialect: "",
  current: "skills/card_replace/responses.yml",
  response: "utter_card_replacement_fee",
  skill: "card_replace",
  memory: `{"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}}`,
};

const $ = (id) => document.getElementById(id);
let state = structuredClone(EXAMPLE_STATE);
let lastCheck = null;

// ---- the module ------------------------------------------------------------

let wasm = null;

async function loadModule() {
  const response = await fetch(new URL("utter_playground.wasm", import.meta.url));
  const { instance } = await WebAssembly.instantiateStreaming(response, {});
  wasm = instance.exports;
}

/// One request to utter: JSON in, JSON out (crates/utter-playground).
function ask(request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  try {
    const at = wasm.utter_request_buffer(bytes.length);
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const len = wasm.utter_respond();
    const answer = new Uint8Array(wasm.memory.buffer, wasm.utter_answer(), len);
    return JSON.parse(new TextDecoder().decode(answer));
  } catch (e) {
    // A trap leaves the instance unusable: start a fresh one, say so.
    loadModule();
    return { error: `utter stopped on this input (${e}); please report it` };
  }
}

function request(op, extra = {}) {
  return { op, files: state.files, dialect: state.dialect || null, ...extra };
}

// ---- the share link: every file in the URL's fragment ----------------------

function base64url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function squeeze(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

async function encodeState() {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return "s1." + base64url(await squeeze(json, new CompressionStream("deflate-raw")));
}

async function decodeState(fragment) {
  if (!fragment.startsWith("s1.")) return null;
  const json = await squeeze(unbase64url(fragment.slice(3)), new DecompressionStream("deflate-raw"));
  const shared = JSON.parse(new TextDecoder().decode(json));
  if (typeof shared !== "object" || typeof shared.files !== "object") return null;
  const files = {};
  for (const [path, text] of Object.entries(shared.files)) {
    if (typeof text === "string") files[path] = text;
  }
  const str = (v) => (typeof v === "string" ? v : "");
  return {
    files,
    dialect: str(shared.dialect),
    current: str(shared.current),
    response: str(shared.response),
    skill: str(shared.skill),
    memory: str(shared.memory),
  };
}

let saveTimer = 0;
function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(async () => {
    history.replaceState(null, "", "#" + (await encodeState()));
  }, 250);
}

// ---- files and the editor ----------------------------------------------------

function paths() {
  return Object.keys(state.files).sort();
}

function showFiles() {
  const nav = $("files");
  nav.replaceChildren();
  const erring = new Set((lastCheck?.findings ?? []).filter((f) => f.severity === "error").map((f) => f.file));
  for (const path of paths()) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = path;
    b.dataset.path = path;
    b.setAttribute("aria-current", String(path === state.current));
    if (erring.has(path)) b.classList.add("has-error");
    b.addEventListener("click", () => openFile(path));
    nav.append(b);
  }
}

function openFile(path) {
  if (!(path in state.files)) path = paths()[0] ?? "";
  state.current = path;
  $("editor").value = state.files[path] ?? "";
  $("editor").disabled = !(path in state.files);
  showFiles();
  showGutter();
  saveSoon();
}

function showGutter() {
  const lines = ($("editor").value.match(/\n/g)?.length ?? 0) + 1;
  const marks = new Map();
  const rank = { error: 3, warning: 2, note: 1 };
  for (const f of lastCheck?.findings ?? []) {
    if (f.file !== state.current) continue;
    for (let l = f.line; l <= Math.max(f.line, f.end_line - (f.end_column === 1 ? 1 : 0)); l++) {
      if ((rank[marks.get(l)] ?? 0) < rank[f.severity]) marks.set(l, f.severity);
    }
  }
  const gutter = $("gutter");
  gutter.replaceChildren();
  for (let l = 1; l <= lines; l++) {
    const span = document.createElement("span");
    span.textContent = String(l);
    span.dataset.line = String(l);
    if (marks.has(l)) span.className = marks.get(l);
    gutter.append(span, "\n");
  }
  gutter.scrollTop = $("editor").scrollTop;
}

/// The editor's caret at a 1-based line and character column (utter counts
/// characters; the text area counts UTF-16 units).
function revealAt(path, line, column) {
  openFile(path);
  const text = $("editor").value;
  let at = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", at);
    if (next < 0) break;
    at = next + 1;
  }
  for (let c = 1; c < column && at < text.length && text[at] !== "\n"; c++) {
    at += text.codePointAt(at) > 0xffff ? 2 : 1;
  }
  const editor = $("editor");
  editor.focus();
  editor.setSelectionRange(at, at);
}

// ---- check -------------------------------------------------------------------

function check(startedAt) {
  const answer = ask(request("check"));
  if (answer.error) {
    $("summary").textContent = answer.error;
    $("summary").className = "bad";
    return;
  }
  lastCheck = answer;
  const list = $("findings");
  list.replaceChildren();
  const count = (s) => {
    const n = answer.findings.filter((f) => f.severity === s).length;
    return `${n} ${s}${n === 1 ? "" : "s"}`;
  };
  for (const f of answer.findings) {
    const li = document.createElement("li");
    li.className = f.severity;
    li.dataset.file = f.file;
    li.dataset.line = String(f.line);
    li.dataset.column = String(f.column);
    li.dataset.code = f.code;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${f.file}:${f.line}:${f.column} `;
    const severity = document.createElement("span");
    severity.className = "severity";
    severity.textContent = `${f.severity}[${f.code}]`;
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = `: ${f.message}`;
    const rendered = document.createElement("pre");
    rendered.textContent = f.rendered;
    li.append(where, severity, message, rendered);
    // Findings about a folder or a bundled file have no text to show.
    if (f.file in state.files) li.addEventListener("click", () => revealAt(f.file, f.line, f.column));
    list.append(li);
  }
  const ms = performance.now() - startedAt;
  $("summary").className = "";
  $("summary").textContent =
    `${count("error")}, ${count("warning")}, ${count("note")} (${answer.dialect}); ` +
    `checked in ${ms.toFixed(1)} ms`;
  $("summary").dataset.ms = ms.toFixed(2);
  const ignored = answer.ignored_files;
  $("ignored").hidden = ignored.length === 0;
  $("ignored").textContent = ignored.length
    ? `Not agent files, not read: ${ignored.join(", ")} (utter reads responses.yml, memory.yml, utter.yml and skills/<id>/{responses.yml, memory.yml, skill.md}).`
    : "";
  showFiles();
  showGutter();
  showChoices(answer);
}

function showChoices(answer) {
  const fill = (select, values, keep) => {
    select.replaceChildren(...values.map(([value, label]) => new Option(label, value)));
    select.value = values.some(([v]) => v === keep) ? keep : values[0]?.[0] ?? "";
  };
  const own = answer.responses.filter((r) => !r.bundled);
  const bundled = answer.responses.filter((r) => r.bundled);
  fill(
    $("response"),
    [...own, ...bundled].map((r) => [r.name, r.bundled ? `${r.name} (bundled)` : r.name]),
    state.response,
  );
  fill($("skill"), [["", "none"], ...answer.skills.map((s) => [s, s])], state.skill);
  // The state keeps the reader's choice while an edit hides it (a response
  // with an error is not listed): fixing the edit brings it back.
}

// ---- render and explain ---------------------------------------------------------

function render() {
  const response = $("response").value;
  if (!response) return;
  const skill = $("skill").value || null;
  const answer = ask(request("render", { response, skill, memory: state.memory }));
  const note = $("memory-note");
  note.className = "";
  note.textContent = "";
  for (const id of ["delivered", "delivery-meta", "why"]) $(id).textContent = "";
  $("analysis").replaceChildren();
  if (answer.error) {
    note.className = "bad";
    note.textContent = answer.error;
    return;
  }
  if (answer.memory_error) {
    const e = answer.memory_error;
    note.className = "bad";
    note.textContent = `memory ${e.line}:${e.column}: ${e.message}`;
    return;
  }
  note.textContent = (answer.memory_warnings ?? []).map((w) => `memory ${w.line}:${w.column}: warning: ${w.message}`).join("\n");
  if (answer.usable_only) {
    note.textContent += (note.textContent ? "\n" : "") + "The agent has errors: only the responses free of errors themselves are rendered.";
  }
  const d = answer.delivery;
  $("delivered").textContent = d.text;
  $("delivery-meta").textContent = d.variant === null
    ? (d.fallback ? "no variant: the response's name is delivered" : "")
    : `variant ${d.variant}, wording id ${d.wording_id}${d.rephrase ? ", may be rephrased" : ""}`;
  $("why").textContent = answer.why;
  for (const v of answer.analysis?.variants ?? []) {
    const li = document.createElement("li");
    li.className = v.kind;
    li.textContent = `${v.when}${v.rephrase ? " (rephrased)" : ""}, wording id ${v.wording_id}: ${v.verdict}`;
    li.title = v.text ?? "";
    $("analysis").append(li);
  }
}

// ---- the review report -------------------------------------------------------------

let reportUrl = "";
function report() {
  const answer = ask(request("report"));
  if (answer.error) {
    $("report-note").textContent = answer.error;
    return;
  }
  $("report-note").textContent = answer.usable_only
    ? "The agent has errors: the report shows the responses free of errors themselves."
    : "";
  $("report").srcdoc = answer.html;
  if (reportUrl) URL.revokeObjectURL(reportUrl);
  reportUrl = URL.createObjectURL(new Blob([answer.html], { type: "text/html" }));
  $("report-download").href = reportUrl;
}

function showPanel(tab) {
  for (const t of document.querySelectorAll('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    $(t.dataset.panel).hidden = !on;
  }
  refreshPanel();
}

function refreshPanel() {
  if (!$("render-panel").hidden) render();
  if (!$("report-panel").hidden) report();
}

// ---- wiring ---------------------------------------------------------------------------

function everything(startedAt = performance.now()) {
  check(startedAt);
  refreshPanel();
}

function apply(next) {
  state = next;
  $("dialect").value = state.dialect;
  $("memory").value = state.memory;
  if (!(state.current in state.files)) state.current = paths()[0] ?? "";
  openFile(state.current);
  everything();
}

async function main() {
  try {
    await loadModule();
  } catch (e) {
    $("status").textContent = `utter could not load: ${e}`;
    return;
  }
  let shared = null;
  if (location.hash.length > 1) {
    try {
      shared = await decodeState(location.hash.slice(1));
    } catch (e) {
      shared = null;
    }
    if (!shared) $("status").textContent = "the link holds no agent this page can read; the example is shown";
  }
  apply(shared ?? structuredClone(EXAMPLE_STATE));
  if (shared || location.hash.length <= 1) $("status").textContent = "ready";
  document.body.dataset.ready = "true";

  $("editor").addEventListener("input", (event) => {
    state.files[state.current] = $("editor").value;
    saveSoon();
    everything(event.timeStamp);
  });
  $("editor").addEventListener("scroll", () => {
    $("gutter").scrollTop = $("editor").scrollTop;
  });
  $("dialect").addEventListener("change", () => {
    state.dialect = $("dialect").value;
    saveSoon();
    everything();
  });
  $("response").addEventListener("change", () => {
    state.response = $("response").value;
    saveSoon();
    render();
  });
  $("skill").addEventListener("change", () => {
    state.skill = $("skill").value;
    saveSoon();
    render();
  });
  $("memory").addEventListener("input", () => {
    state.memory = $("memory").value;
    saveSoon();
    render();
  });
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener("click", () => showPanel(tab));
  }
  $("add-file").addEventListener("submit", (event) => {
    event.preventDefault();
    const path = $("new-path").value.trim();
    if (!path) return;
    if (!(path in state.files)) state.files[path] = "";
    $("new-path").value = "";
    openFile(path);
    everything();
  });
  $("remove-file").addEventListener("click", () => {
    delete state.files[state.current];
    openFile(paths()[0] ?? "");
    everything();
  });
  $("reset").addEventListener("click", () => apply(structuredClone(EXAMPLE_STATE)));
  $("share").addEventListener("click", async () => {
    const link = location.origin + location.pathname + "#" + (await encodeState());
    history.replaceState(null, "", link);
    try {
      await navigator.clipboard.writeText(link);
      $("status").textContent = "link copied";
    } catch {
      $("status").textContent = "the link is in the address bar";
    }
  });
}

main();
