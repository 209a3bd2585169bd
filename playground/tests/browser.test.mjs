// Headless Chromium drives the review report and the playground.
// Run by crates/utter-playground/tests/browser.rs, which builds the site and
// the report and passes them in:
//   SITE=<built playground folder> REPORT=<report.html> DIFF=<diff.html>
//   CHROMIUM=/usr/bin/chromium node --test playground/tests/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";
import { chromium, server, launchOptions } from "./harness.mjs";

let browser;
let site;
before(async () => {
  browser = await chromium.launch(launchOptions());
  site = await server(process.env.SITE);
});
after(async () => {
  await browser?.close();
  site?.close();
});

/// A page that records every console error, uncaught error and request.
async function watched() {
  const page = await browser.newPage();
  const problems = [];
  const requests = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => requests.push(r.url()));
  return { page, problems, requests };
}

test("the review report loads from disk with no console error and shows every response", async () => {
  const { page, problems, requests } = await watched();
  const url = "file://" + process.env.REPORT;
  await page.goto(url);
  assert.deepEqual(problems, []);
  assert.deepEqual(requests, [url], "the report fetches nothing");
  assert.match(await page.title(), /wording/i);
  const names = await page.locator("details.response > summary code").allTextContents();
  for (const name of JSON.parse(process.env.REPORT_RESPONSES)) {
    assert.ok(names.includes(name), `${name} is on the page`);
  }
  assert.ok((await page.locator("nav li a[href^=\"#r\"]").count()) >= names.length, "a contents list leading to every response");
  assert.ok((await page.locator(".variant").count()) >= names.length, "every variant");
  assert.ok((await page.locator(".badge.rephrase").count()) > 0, "rephrase badges");
  const body = await page.locator("body").textContent();
  assert.ok(body.includes(process.env.REPORT_FINGERPRINT), "the wording fingerprint");
  // The contents list leads to each response.
  await page.locator("nav a[href^=\"#r\"]").first().click();
  assert.deepEqual(problems, []);
  await page.close();
});

test("the diff report marks the changed words and loads with no console error", async () => {
  const { page, problems, requests } = await watched();
  const url = "file://" + process.env.DIFF;
  await page.goto(url);
  assert.deepEqual(problems, []);
  assert.deepEqual(requests, [url]);
  assert.ok((await page.locator("del").count()) > 0 && (await page.locator("ins").count()) > 0);
  assert.match(await page.locator("#first h2").textContent(), /review first/i);
  await page.close();
});

/// In every row of every before/after table of the page: the after cell
/// right of the before cell on the same line, and no text wider than its
/// cell (measured by the browser's layout, not read from the DOM).
async function sideBySide(page) {
  return page.$$eval("table.diff tbody tr", (rows) =>
    rows.map((row) => {
      const before = row.querySelector("td.before");
      const after = row.querySelector("td.after");
      const b = before.getBoundingClientRect();
      const a = after.getBoundingClientRect();
      const overflowing = [...row.querySelectorAll("td, th, .text")]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.className || el.tagName);
      return {
        row: row.querySelector("th")?.textContent ?? "",
        rightOf: a.left >= b.right - 1,
        sameLine: Math.abs(a.top - b.top) < 1,
        widths: [Math.round(b.width), Math.round(a.width)],
        overflowing,
      };
    }),
  );
}

test("the diff report: before and after side by side in every row, no text overflows, at 1280 and 800 px", async () => {
  for (const width of [1280, 800]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto("file://" + process.env.DIFF);
    const rows = await sideBySide(page);
    assert.ok(rows.length >= 3, `rows at ${width}: ${JSON.stringify(rows)}`);
    for (const row of rows) {
      assert.ok(row.rightOf && row.sameLine, `at ${width} px, after is right of before: ${JSON.stringify(row)}`);
      assert.ok(Math.abs(row.widths[0] - row.widths[1]) <= 2, `equal columns at ${width}: ${JSON.stringify(row)}`);
      assert.deepEqual(row.overflowing, [], `at ${width} px nothing overflows: ${JSON.stringify(row)}`);
    }
    // The page itself never scrolls sideways, nor does the report's.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `diff at ${width}`);
    await page.locator("#first").evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: `${process.env.SHOTS}/review-diff-${width}.png` });
    await page.goto("file://" + process.env.REPORT);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `report at ${width}`);
    const wide = await page.$$eval(".text", (els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).length);
    assert.equal(wide, 0, `report texts overflow at ${width}`);
    const fee = page.locator("details.response", { has: page.locator("summary code", { hasText: /^utter_card_replacement_fee$/ }) });
    await fee.evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: `${process.env.SHOTS}/review-report-${width}.png` });
    await page.close();
  }
  // Printed: no contents, and a section closed on screen is on paper.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto("file://" + process.env.DIFF);
  await page.locator("#c0 > summary").click();
  assert.equal(await page.locator("#c0 table.diff").isVisible(), false, "closed on screen");
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.locator("nav").isVisible(), false, "no contents on paper");
  assert.equal(await page.locator("#c0 table.diff").isVisible(), true, "a closed section prints");
  await page.close();
});

/// `read` of the report frame once its page has loaded: the tab sets the
/// frame's document when shown, so a read racing that load is tried again
/// (the frame's "execution context was destroyed" by the new document).
async function fromReport(page, read) {
  const frame = page.frameLocator("#report");
  for (let attempt = 0; ; attempt++) {
    try {
      await frame.locator("details.response").first().waitFor();
      return await read(frame);
    } catch (e) {
      if (attempt >= 10 || !/context was destroyed|navigat/i.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function openPlayground(hash = "") {
  const w = await watched();
  await w.page.goto(site.url + "/index.html" + hash);
  await w.page.waitForSelector("body[data-ready=true]");
  return w;
}

async function findings(page) {
  return page.$$eval("#findings li", (items) =>
    items.map((li) => ({
      file: li.dataset.file,
      line: Number(li.dataset.line),
      column: Number(li.dataset.column),
      code: li.dataset.code,
      text: li.textContent,
    })),
  );
}

test("the playground: a typo is found at its line, fixing it removes it, render delivers", async () => {
  const { page, problems, requests } = await openPlayground();
  assert.deepEqual(await findings(page), [], "the example agent is clean");
  await page.click('#files button[data-path="skills/card_replace/responses.yml"]');
  const editor = page.locator("#editor");
  const text = await editor.inputValue();
  // A typo in a condition: `replacement_reaon`, found where the memory
  // key starts (1-based line and column).
  const key = text.indexOf("session.card_replace.replacement_reason ==");
  assert.ok(key > 0);
  const at = key + "session.card_replace.".length;
  const line = text.slice(0, key).split("\n").length;
  const column = key - text.lastIndexOf("\n", key - 1);
  await editor.focus();
  await editor.evaluate((el, at) => el.setSelectionRange(at + "replacement_rea".length, at + "replacement_reas".length), at);
  await page.keyboard.press("Delete"); // as typed: one key
  const found = await findings(page);
  assert.equal(found.length >= 1, true, JSON.stringify(found));
  const typo = found.find((f) => f.file === "skills/card_replace/responses.yml" && f.line === line);
  assert.ok(typo, `a finding at line ${line}: ${JSON.stringify(found)}`);
  assert.equal(typo.column, column, JSON.stringify(typo));
  assert.match(typo.text, /replacement_reaon/);
  assert.match(typo.text, /did you mean|replacement_reason/);
  assert.equal(await page.locator(`#gutter span[data-line="${line}"].error`).count(), 1, "the line is marked");
  // Clicking the finding puts the caret at its place.
  await page.locator("#findings li").first().click();
  const caret = await editor.evaluate((el) => el.selectionStart);
  assert.ok(caret > 0);
  // Fixing it (one key again) removes it.
  await page.keyboard.press("End");
  await editor.evaluate((el, at) => el.setSelectionRange(at + "replacement_rea".length, at + "replacement_rea".length), at);
  await page.keyboard.type("s");
  assert.deepEqual(await findings(page), [], "fixed");
  const ms = Number(await page.locator("#summary").getAttribute("data-ms"));
  assert.ok(ms >= 0);
  console.log(`keystroke to findings: ${ms.toFixed(2)} ms`);

  // Render: the shared example's memory delivers the lost-card fee.
  await page.click("#tab-render");
  assert.equal(await page.locator("#delivered").textContent(), "A fee of $7.5 applies for a lost card.");
  assert.match(await page.locator("#delivery-meta").textContent(), /variant 1, wording id [0-9a-f]{16}/);
  assert.match(await page.locator("#why").textContent(), /variant 1/);
  assert.equal(await page.locator("#analysis li").count(), 3);
  // Each variant named as every surface names it (the compiler's one shape of a variant).
  for (const line of await page.locator("#analysis li").allTextContents()) {
    assert.match(line, /^(if .+|default|without condition)( \(rephrased\))?, wording id [0-9a-f]{16}: (delivered when|never delivered|not analysed): /);
  }
  // Voice, in the conversation's language: the facts in words.
  await page.selectOption("#channel", "voice");
  assert.equal(await page.locator("#delivered").textContent(), "A fee of seven dollars and fifty cents applies for a lost card.");
  await page.fill("#language", "de");
  assert.equal(await page.locator("#delivered").textContent(), "A fee of sieben Dollar und fünfzig Cent applies for a lost card.");
  await page.fill("#language", "x y");
  assert.match(await page.locator("#memory-note").textContent(), /not a BCP 47 language tag/);
  await page.fill("#language", "");
  await page.selectOption("#channel", "text");
  assert.equal(await page.locator("#delivered").textContent(), "A fee of $7.5 applies for a lost card.");
  await page.fill("#memory", '{"card_replace": {"replacement_reason": "stolen"}}');
  assert.equal(await page.locator("#delivered").textContent(), "No fee for cards reported stolen.");
  await page.fill("#memory", '{"card_replace": {"replacement_reason": 3}}');
  assert.match(await page.locator("#memory-note").textContent(), /memory 1:19: .*replacement_reason.*not one of/);

  // The review report of the edited agent.
  await page.click("#tab-report");
  const names = await fromReport(page, (frame) => frame.locator("details.response > summary code").allTextContents());
  assert.ok(names.includes("utter_card_replacement_fee"), JSON.stringify(names));
  assert.deepEqual(problems, []);
  assert.ok(requests.every((r) => r.startsWith(site.url)), `only the site: ${requests}`);
  await page.close();
});

test("the playground: a shared link holds the files, and the agent's text is never markup", async () => {
  const { page, problems, requests } = await openPlayground();
  await page.click('#files button[data-path="responses.yml"]');
  const hostile = `responses:\n  utter_greet:\n    - text: "<img src=http://example.invalid/x onerror=alert(1)><b>bold</b>"\n`;
  await page.fill("#editor", hostile);
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#s1."));
  const link = page.url();
  await page.close();

  const again = await openPlayground(link.slice(link.indexOf("#")));
  await again.page.click('#files button[data-path="responses.yml"]');
  assert.equal(await again.page.locator("#editor").inputValue(), hostile);
  await again.page.click("#tab-render");
  await again.page.selectOption("#response", "utter_greet");
  assert.equal(
    await again.page.locator("#delivered").textContent(),
    "<img src=http://example.invalid/x onerror=alert(1)><b>bold</b>",
  );
  assert.equal(await again.page.locator("#delivered img, #delivered b").count(), 0, "no markup");
  await again.page.click("#tab-report");
  const [markup, body] = await fromReport(again.page, async (frame) => [
    await frame.locator("details.response img, details.response b").count(),
    await frame.locator("body").textContent(),
  ]);
  assert.equal(markup, 0, "no markup in the report");
  assert.ok(body.includes("<img src=http://example.invalid/x"));
  for (const w of [{ problems, requests }, again]) {
    assert.deepEqual(w.problems, []);
    assert.ok(w.requests.every((r) => r.startsWith(site.url)), `only the site: ${w.requests}`);
  }
  await again.page.close();
});

test("the playground: a broken link says so and shows the example", async () => {
  const { page, problems } = await openPlayground("#s1.not-deflate");
  assert.match(await page.locator("#status").textContent(), /no agent/);
  assert.ok((await page.locator("#files button").count()) >= 5);
  assert.deepEqual(problems, []);
  await page.close();
});

/// A share link holding `state` (docs/playground.md, "Share links"),
/// made as the page makes it: JSON, raw deflate, base64url.
function link(state) {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(state)));
  return "#s1." + packed.toString("base64url");
}

/// Types one character after `after` (else at the end of the first line)
/// and returns how long the page took from the key to the findings.
async function keystroke(page, key = "x", after = null) {
  const editor = page.locator("#editor");
  await editor.focus();
  await editor.evaluate((el, after) => {
    const at = after === null ? el.value.indexOf("\n") : el.value.indexOf(after) + after.length;
    el.setSelectionRange(at, at);
  }, after);
  // The number of checks, not the summary's text: two checks may say the same.
  const before = await page.locator("#summary").getAttribute("data-checks");
  await page.keyboard.type(key);
  await page.waitForFunction((b) => document.querySelector("#summary").dataset.checks !== b, before);
  return Number(await page.locator("#summary").getAttribute("data-ms"));
}

test("the playground: a link that unpacks past its limit is refused at once, with why", async () => {
  // 5,000,000 newlines (10 MB of JSON) pack into a link of about 13,000 characters.
  const bomb = link({ files: { "responses.yml": "\n".repeat(5_000_000) } });
  assert.ok(bomb.length < 20_000, `the link is short: ${bomb.length}`);
  const { page, problems } = await openPlayground(bomb);
  assert.match(await page.locator("#status").textContent(), /larger than 8 MiB unpacked/);
  assert.ok((await page.locator("#files button").count()) >= 5, "the example is shown");
  assert.deepEqual(problems, []);
  await page.close();
});

test("the playground: a file of a million lines keeps a gutter of the lines in view", async () => {
  const text = "responses:\n  utter_a:\n    - text: Hi\n" + "\n".repeat(1_000_000);
  const { page, problems } = await openPlayground(link({ files: { "responses.yml": text }, current: "responses.yml" }));
  const spans = await page.locator("#gutter span").count();
  assert.ok(spans > 10 && spans < 200, `a gutter of the lines in view: ${spans} spans`);
  const ms = await keystroke(page);
  console.log(`keystroke to findings, one file of a million lines: ${ms.toFixed(2)} ms`);
  // Scrolled to line 500,001 (a text area is at most about 16 million
  // pixels tall in Chromium: the middle, not the end): its number is in
  // view beside it, the gutter as small.
  await page.locator("#editor").evaluate((el) => {
    el.scrollTop = 500_000 * parseFloat(getComputedStyle(el).lineHeight);
    el.dispatchEvent(new Event("scroll"));
  });
  await page.waitForSelector('#gutter span[data-line="500001"]');
  assert.ok((await page.locator("#gutter span").count()) < 200);
  const top = await page.$eval('#gutter span[data-line="500001"]', (el) => el.getBoundingClientRect().top);
  const box = await page.$eval("#gutter", (el) => el.getBoundingClientRect());
  assert.ok(top >= box.top && top < box.bottom, `line 500,001's number is in view: ${top} in ${box.top}..${box.bottom}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the playground: files named __proto__ and constructor are files, an unknown dialect is said", async () => {
  const files = {
    "responses.yml": "responses:\n  utter_a:\n    - text: Hi\n",
    __proto__: "proto text\n",
    constructor: "constructor text\n",
  };
  // `__proto__` as a JSON key: an own property, as JSON.parse makes it.
  const json = JSON.stringify({ files: { ...files }, dialect: "klingon" }).replace('"responses.yml"', '"__proto__":"proto text\\n","responses.yml"');
  const packed = "#s1." + deflateRawSync(Buffer.from(json)).toString("base64url");
  const { page, problems } = await openPlayground(packed);
  assert.match(await page.locator("#status").textContent(), /dialect "klingon".*does not know/);
  for (const [name, text] of [["__proto__", "proto text\n"], ["constructor", "constructor text\n"]]) {
    await page.click(`#files button[data-path="${name}"]`);
    assert.equal(await page.locator("#editor").inputValue(), text, name);
  }
  // Typing into `__proto__` is kept, in the page and in its link.
  await page.click('#files button[data-path="__proto__"]');
  await page.locator("#editor").fill("typed into proto\n");
  await page.click("#share");
  // The page opened from a link: wait for the link of the edited files.
  await page.waitForFunction(() => /link copied|in the address bar/.test(document.querySelector("#status").textContent));
  const shared = page.url();
  await page.click('#files button[data-path="responses.yml"]');
  await page.click('#files button[data-path="__proto__"]');
  assert.equal(await page.locator("#editor").inputValue(), "typed into proto\n");
  await page.close();
  const again = await openPlayground(shared.slice(shared.indexOf("#")));
  await again.page.click('#files button[data-path="__proto__"]');
  assert.equal(await again.page.locator("#editor").inputValue(), "typed into proto\n");
  assert.match(await again.page.locator("#ignored").textContent(), /__proto__/, "not an agent file, said so");
  assert.deepEqual([...problems, ...again.problems], []);
  await again.page.close();
});

test("the playground: 3,000 responses, the report made when asked, a keystroke's findings timed", async () => {
  let yml = "responses:\n";
  for (let i = 0; i < 3000; i++) {
    yml += `  utter_r${i}:\n    - text: "Reply ${i} for {session.project.name}"\n      condition: session.project.n == ${i}\n    - text: "Default ${i}"\n`;
  }
  const files = { "responses.yml": yml, "memory.yml": "name: {type: text}\nn: {type: int}\n" };
  const { page, problems } = await openPlayground(link({ files, current: "responses.yml" }));
  assert.match(await page.locator("#summary").textContent(), /^0 errors/);
  assert.equal(await page.locator("#response option").count(), 3000 + (await page.locator("#response option", { hasText: "(bundled)" }).count()));
  const times = [];
  // Typed into a text: the agent stays valid, as while writing wording.
  for (const key of "abcde") times.push(await keystroke(page, key, '"Default 1500'));
  times.sort((a, b) => a - b);
  console.log(`keystroke to findings at 3,000 responses: median ${times[2].toFixed(1)} ms of ${times.map((t) => t.toFixed(1)).join(", ")}`);
  // The report: made when its tab is shown, outdated (not remade) by an edit.
  await page.click("#tab-report");
  const count = await fromReport(page, (frame) => frame.locator("details.response").count());
  assert.ok(count >= 3000, `${count} responses in the report`);
  const before = await page.$eval("#report", (el) => el.srcdoc.length);
  await keystroke(page, "f", '"Default 1500');
  assert.match(await page.locator("#report-note").textContent(), /before your last edit/);
  assert.equal(await page.locator("#report-refresh").isVisible(), true);
  assert.equal(await page.$eval("#report", (el) => el.srcdoc.length), before, "not remade on a keystroke");
  await page.click("#report-refresh");
  assert.equal(await page.locator("#report-refresh").isVisible(), false);
  assert.notEqual(await page.$eval("#report", (el) => el.srcdoc.length), before, "remade when asked");
  assert.deepEqual(problems, []);
  await page.close();
});

/// A folder in the system's temporary folder holding `files` (path → text).
function folderOf(files) {
  const root = mkdtempSync(join(tmpdir(), "utter-playground-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test("the playground: an agent folder opened with the picker, what utter would not read left out and said", async () => {
  const root = folderOf({
    "responses.yml": "responses:\n  utter_hi:\n    - text: Hi from the folder\n",
    "memory.yml": "name: {type: text}\n",
    "skills/pay/responses.yml": "responses:\n  utter_pay:\n    - text: Pay now\n",
    "skills/pay/skill.md": "---\ndescription: Pay\n---\nPay.\n",
    "skills/big/responses.yml": "responses:\n" + "#".repeat(9 * 1024 * 1024) + "\n",
    "notes.txt": "not an agent file",
    ".git/config": "[core]\n",
  });
  const { page, problems } = await openPlayground();
  await page.setInputFiles("#folder-picker", root);
  await page.waitForFunction(() => /^opened /.test(document.querySelector("#status").textContent));
  const status = await page.locator("#status").textContent();
  assert.match(status, /4 files/);
  assert.match(status, /larger than 8 MiB, not opened: skills\/big\/responses\.yml/);
  assert.match(status, /not agent files, not read: .*notes\.txt/);
  const listed = await page.locator("#files button").allTextContents();
  assert.deepEqual(listed, ["memory.yml", "responses.yml", "skills/pay/responses.yml", "skills/pay/skill.md"]);
  assert.equal(await page.locator("#editor").inputValue(), "responses:\n  utter_hi:\n    - text: Hi from the folder\n");
  await page.click("#tab-render");
  await page.selectOption("#response", "utter_hi");
  assert.equal(await page.locator("#delivered").textContent(), "Hi from the folder");
  assert.deepEqual(problems, []);
  await page.close();
  rmSync(root, { recursive: true, force: true });
});

test("the playground: files dropped on the page open as an agent", async () => {
  const { page, problems } = await openPlayground();
  const transfer = await page.evaluateHandle(() => {
    const t = new DataTransfer();
    t.items.add(new File(["responses:\n  utter_dropped:\n    - text: Dropped in\n"], "responses.yml"));
    t.items.add(new File(["x"], "readme.md"));
    return t;
  });
  await page.dispatchEvent("body", "drop", { dataTransfer: transfer });
  await page.waitForFunction(() => /^opened /.test(document.querySelector("#status").textContent));
  assert.match(await page.locator("#status").textContent(), /1 file; not agent files, not read: readme\.md/);
  assert.deepEqual(await page.locator("#files button").allTextContents(), ["responses.yml"]);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the playground: a link made by share.mjs from an agent folder opens it", async () => {
  const script = fileURLToPath(new URL("../share.mjs", import.meta.url));
  const card = fileURLToPath(new URL("../../examples/card-agent", import.meta.url));
  const made = execFileSync(process.execPath, [script, card, "--playground", `${site.url}/index.html`], { encoding: "utf8" }).trim();
  assert.ok(made.startsWith(`${site.url}/index.html#s1.`), made.slice(0, 80));
  const { page, problems } = await openPlayground(made.slice(made.indexOf("#")));
  assert.equal(await page.locator("#status").textContent(), "ready");
  const listed = await page.locator("#files button").allTextContents();
  for (const path of ["responses.yml", "skills/card_replace/responses.yml", "skills/card_replace/skill.md"]) {
    assert.ok(listed.includes(path), `${path} in ${listed}`);
  }
  assert.match(await page.locator("#summary").textContent(), /^0 errors/);
  assert.deepEqual(problems, []);
  await page.close();
});
