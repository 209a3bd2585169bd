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

/// File names are keys of a `Map`: a file named `__proto__` or
/// `constructor` is a file like any other.
const EXAMPLE_STATE = {
  files: new Map(Object.entries(EXAMPLE)),
  dialect: "",
  current: "skills/card_replace/responses.yml",
  response: "utter_card_replacement_fee",
  skill: "card_replace",
  memory: `{"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}}`,
};

/// The largest agent a link opens, unpacked (bytes of its JSON): a link
/// of a few kilobytes can unpack to gigabytes.
const LINK_LIMIT = 8 * 1024 * 1024;
const DIALECTS = ["", "mantle", "maestro"];

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
    // Addresses and lengths are u32 that JavaScript reads as i32: above
    // 2 GiB they would turn negative.
    const at = wasm.utter_request_buffer(bytes.length) >>> 0;
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const len = wasm.utter_respond() >>> 0;
    const answer = new Uint8Array(wasm.memory.buffer, wasm.utter_answer() >>> 0, len);
    return JSON.parse(new TextDecoder().decode(answer));
  } catch (e) {
    // A trap leaves the instance unusable: start a fresh one, say so.
    loadModule();
    return { error: `utter stopped on this input (${e}); please report it` };
  }
}

function request(op, extra = {}) {
  return { op, files: Object.fromEntries(state.files), dialect: state.dialect || null, ...extra };
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

/// `bytes` through `stream`, stopping with an error past `limit` bytes out.
async function squeeze(bytes, stream, limit = Infinity) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new TooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

class TooLarge extends Error {
  constructor(limit) {
    super(`the link's agent is larger than ${limit / 1024 / 1024} MiB unpacked; the playground opens agents up to that size`);
  }
}

async function encodeState() {
  const json = new TextEncoder().encode(JSON.stringify({ ...state, files: Object.fromEntries(state.files) }));
  return "s1." + base64url(await squeeze(json, new CompressionStream("deflate-raw")));
}

/// The state a link holds (docs/playground.md, "Share links"), or `null`;
/// `notes` collects what of it could not be used.
async function decodeState(fragment, notes = []) {
  if (!fragment.startsWith("s1.")) return null;
  const json = await squeeze(unbase64url(fragment.slice(3)), new DecompressionStream("deflate-raw"), LINK_LIMIT);
  const shared = JSON.parse(new TextDecoder().decode(json));
  if (typeof shared !== "object" || shared === null || typeof shared.files !== "object" || shared.files === null) return null;
  const files = new Map();
  for (const [path, text] of Object.entries(shared.files)) {
    if (typeof text === "string") files.set(path, text);
  }
  const str = (v) => (typeof v === "string" ? v : "");
  let dialect = str(shared.dialect);
  if (!DIALECTS.includes(dialect)) {
    notes.push(`the link asks for the dialect ${JSON.stringify(dialect)}, which utter does not know (mantle or maestro): the agent's utter.yml decides`);
    dialect = "";
  }
  return {
    files,
    dialect,
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
  return [...state.files.keys()].sort();
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
  if (!state.files.has(path)) path = paths()[0] ?? "";
  state.current = path;
  $("editor").value = state.files.get(path) ?? "";
  $("editor").disabled = !state.files.has(path);
  countLines();
  showFiles();
  showGutter();
  saveSoon();
}

/// Lines of the text in the editor (counted on each edit, not each scroll).
let lineCount = 1;
function countLines() {
  const text = $("editor").value;
  let lines = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
  lineCount = lines;
}

/// The gutter holds the lines in view (and a few around), between two
/// spacers as tall as the lines above and below: its size follows the
/// window, not the file (a file of a million lines is a few dozen spans).
function showGutter() {
  const editor = $("editor");
  const gutter = $("gutter");
  const height = parseFloat(getComputedStyle(editor).lineHeight) || 19;
  const first = Math.max(1, Math.floor(editor.scrollTop / height) + 1 - 10);
  const last = Math.min(lineCount, first + Math.ceil(editor.clientHeight / height) + 20);
  const marks = new Map();
  const rank = { error: 3, warning: 2, note: 1 };
  for (const f of lastCheck?.findings ?? []) {
    if (f.file !== state.current) continue;
    const end = Math.min(last, Math.max(f.line, f.end_line - (f.end_column === 1 ? 1 : 0)));
    for (let l = Math.max(first, f.line); l <= end; l++) {
      if ((rank[marks.get(l)] ?? 0) < rank[f.severity]) marks.set(l, f.severity);
    }
  }
  const spacer = (lines) => {
    const div = document.createElement("div");
    div.className = "spacer";
    div.style.height = `${lines * height}px`;
    return div;
  };
  const spans = [];
  for (let l = first; l <= last; l++) {
    const span = document.createElement("span");
    span.textContent = String(l);
    span.dataset.line = String(l);
    if (marks.has(l)) span.className = marks.get(l);
    spans.push(span);
  }
  gutter.replaceChildren(spacer(first - 1), ...spans, spacer(lineCount - last));
  gutter.scrollTop = editor.scrollTop;
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
    if (state.files.has(f.file)) li.addEventListener("click", () => revealAt(f.file, f.line, f.column));
    list.append(li);
  }
  const ms = performance.now() - startedAt;
  $("summary").className = "";
  $("summary").textContent =
    `${count("error")}, ${count("warning")}, ${count("note")} (${answer.dialect}); ` +
    `checked in ${ms.toFixed(1)} ms`;
  $("summary").dataset.ms = ms.toFixed(2);
  // Counts the checks: a test waits for the next one (the text may repeat).
  $("summary").dataset.checks = String(Number($("summary").dataset.checks ?? 0) + 1);
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
  // Rebuilt only when the choices change: an agent of 3,000 responses
  // would otherwise rebuild 3,000 options on every keystroke.
  const fill = (select, values, keep) => {
    const key = JSON.stringify(values);
    if (select.dataset.choices !== key) {
      select.replaceChildren(...values.map(([value, label]) => new Option(label, value)));
      select.dataset.choices = key;
    }
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
  const channel = $("channel").value;
  const language = $("language").value.trim() || null;
  const answer = ask(request("render", { response, skill, memory: state.memory, channel, language }));
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
    li.className = v.verdict;
    const when = v.selection === "if" ? `if \`${v.condition}\`` : v.selection;
    li.textContent = `${when}${v.rephrase ? " (rephrased)" : ""}, wording id ${v.wording_id}: ${v.verdict_in_words}`;
    li.title = v.example ?? "";
    $("analysis").append(li);
  }
}

// ---- the review report -------------------------------------------------------------

let reportUrl = "";
/// Whether the report shown is of the agent as it is: it is made when its
/// tab is shown or its refresh asked for, never on a keystroke (a report of
/// 3,000 responses takes most of a second).
let reportFresh = false;
function report() {
  reportFresh = true;
  $("report-refresh").hidden = true;
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
  if (!$("report-panel").hidden && !reportFresh) report();
}

/// After an edit: the report shown (if any) is of the agent before it.
function reportOutdated() {
  reportFresh = false;
  if (!$("report-panel").hidden) {
    $("report-note").textContent = "The report is of the agent before your last edit.";
    $("report-refresh").hidden = false;
  }
}

// ---- opening an agent folder ---------------------------------------------------------

/// The largest file utter reads (crates/utter-compiler, `MAX_FILE_BYTES`).
const FILE_LIMIT = 8 * 1024 * 1024;

/// Whether utter reads the file at `path` (relative to the agent folder).
function isAgentFile(path) {
  return ["responses.yml", "memory.yml", "utter.yml"].includes(path)
    || /^skills\/[^/]+\/(responses\.yml|memory\.yml|skill\.md)$/.test(path);
}

/// Whether a folder at `path` may hold files utter reads (the walk of a
/// dropped folder enters no other: not `.git`, not `node_modules`).
function mayHoldAgentFiles(path) {
  return path === "skills" || /^skills\/[^/]+$/.test(path);
}

/// Opens the agent made of `entries` (`{path, file}`, paths relative to
/// the agent folder): the files utter reads, each at most FILE_LIMIT bytes,
/// together at most LINK_LIMIT (what a link can hold). Says what it left.
async function openFolder(entries, name) {
  const files = new Map();
  const unread = [];
  const large = [];
  let total = 0;
  for (const { path, file } of entries) {
    if (!isAgentFile(path)) {
      unread.push(path);
    } else if (file.size > FILE_LIMIT) {
      large.push(path);
    } else {
      total += file.size;
      files.set(path, await file.text());
    }
  }
  const list = (paths) => paths.slice(0, 5).join(", ") + (paths.length > 5 ? ` and ${paths.length - 5} more` : "");
  if (total > LINK_LIMIT) {
    $("status").textContent = `${name} holds ${(total / 1024 / 1024).toFixed(1)} MiB of agent files; the playground opens agents up to ${LINK_LIMIT / 1024 / 1024} MiB (what a link holds): check it with \`utter check\``;
    return;
  }
  if (files.size === 0) {
    $("status").textContent = `${name} holds no file utter reads (responses.yml, memory.yml, utter.yml, skills/<id>/{responses.yml, memory.yml, skill.md})` +
      (large.length ? `; larger than 8 MiB: ${list(large)}` : "");
    return;
  }
  const current = files.has("responses.yml") ? "responses.yml" : [...files.keys()].sort()[0];
  apply({ files, dialect: "", current, response: "", skill: "", memory: "{}" });
  const said = [`opened ${name}: ${files.size} file${files.size === 1 ? "" : "s"}`];
  if (large.length) said.push(`larger than 8 MiB, not opened: ${list(large)}`);
  if (unread.length) said.push(`not agent files, not read: ${list(unread)}`);
  $("status").textContent = said.join("; ");
}

/// The files of a folder chosen with the picker: its name stripped from
/// each path.
function pickedEntries(fileList) {
  return [...fileList].map((file) => ({
    path: file.webkitRelativePath.split("/").slice(1).join("/") || file.name,
    file,
  }));
}

/// The files of what was dropped: a folder (walked where utter reads), or
/// files (each at the agent's root).
async function droppedEntries(transfer) {
  const roots = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (roots.length === 1 && roots[0].isDirectory) {
    const out = [];
    await walk(roots[0], "", out);
    return { name: roots[0].name, entries: out };
  }
  return { name: "the dropped files", entries: [...transfer.files].map((file) => ({ path: file.name, file })) };
}

async function walk(directory, prefix, out) {
  const reader = directory.createReader();
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const entry of batch) {
      const path = prefix + entry.name;
      if (entry.isDirectory) {
        if (mayHoldAgentFiles(path)) await walk(entry, path + "/", out);
        else out.push({ path: path + "/", file: null });
      } else {
        out.push({ path, file: await new Promise((resolve, reject) => entry.file(resolve, reject)) });
      }
    }
  }
}

// ---- wiring ---------------------------------------------------------------------------

function everything(startedAt = performance.now()) {
  check(startedAt);
  reportOutdated();
  if (!$("render-panel").hidden) render();
}

function apply(next) {
  state = next;
  $("dialect").value = state.dialect;
  $("memory").value = state.memory;
  if (!state.files.has(state.current)) state.current = paths()[0] ?? "";
  openFile(state.current);
  everything();
  refreshPanel();
}

async function main() {
  try {
    await loadModule();
  } catch (e) {
    $("status").textContent = `utter could not load: ${e}`;
    return;
  }
  let shared = null;
  let why = "the link holds no agent this page can read; the example is shown";
  const notes = [];
  if (location.hash.length > 1) {
    try {
      shared = await decodeState(location.hash.slice(1), notes);
    } catch (e) {
      shared = null;
      if (e instanceof TooLarge) why = `${e.message}; the example is shown`;
    }
  }
  apply(shared ?? structuredClone(EXAMPLE_STATE));
  if (shared && notes.length) $("status").textContent = notes.join("; ");
  else if (location.hash.length > 1 && !shared) $("status").textContent = why;
  else $("status").textContent = "ready";
  document.body.dataset.ready = "true";

  $("editor").addEventListener("input", (event) => {
    state.files.set(state.current, $("editor").value);
    countLines();
    saveSoon();
    everything(event.timeStamp);
  });
  $("editor").addEventListener("scroll", showGutter);
  new ResizeObserver(showGutter).observe($("editor"));
  $("report-refresh").addEventListener("click", report);
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
  // The channel and language a delivery is spoken in (voice: facts in words).
  $("channel").addEventListener("change", render);
  $("language").addEventListener("input", render);
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener("click", () => showPanel(tab));
  }
  $("add-file").addEventListener("submit", (event) => {
    event.preventDefault();
    const path = $("new-path").value.trim();
    if (!path) return;
    if (!state.files.has(path)) state.files.set(path, "");
    $("new-path").value = "";
    openFile(path);
    everything();
  });
  $("remove-file").addEventListener("click", () => {
    state.files.delete(state.current);
    openFile(paths()[0] ?? "");
    everything();
  });
  $("reset").addEventListener("click", () => apply(structuredClone(EXAMPLE_STATE)));
  $("open-folder").addEventListener("click", () => $("folder-picker").click());
  $("folder-picker").addEventListener("change", async () => {
    const picked = $("folder-picker").files;
    const name = picked[0]?.webkitRelativePath.split("/")[0] || "the folder";
    await openFolder(pickedEntries(picked), name);
    $("folder-picker").value = "";
  });
  document.addEventListener("dragover", (event) => {
    if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
  });
  document.addEventListener("drop", async (event) => {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    const { name, entries } = await droppedEntries(event.dataTransfer);
    await openFolder(entries, name);
  });
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
