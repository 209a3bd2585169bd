// The docs' screenshots of both pages, and the playground's keystroke-to-
// findings time (median of 25 keystrokes) on the example and card agents.
// Run by playground/screenshots.sh:
//   SITE=<built playground> AGENT=<agent folder> OUT=<images folder>
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { deflateRawSync } from "node:zlib";
import { chromium, server, launchOptions } from "./harness.mjs";

function agentFiles(root) {
  const files = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^(responses|memory|utter)\.yml$|^skill\.md$/.test(name)) files[relative(root, path)] = readFileSync(path, "utf8");
    }
  };
  walk(root);
  return files;
}

/// The page's share link for `state` (the format of app.js: `s1.` and
/// deflate-raw JSON in base64url).
function link(state) {
  return "#s1." + deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64url");
}

async function keystrokeMs(page, path) {
  await page.click(`#files button[data-path="${path}"]`);
  const times = [];
  for (let i = 0; i < 25; i++) {
    await page.locator("#editor").press(i % 2 ? "Backspace" : "End");
    await page.keyboard.type(" ");
    times.push(Number(await page.locator("#summary").getAttribute("data-ms")));
    await page.keyboard.press("Backspace");
  }
  times.sort((a, b) => a - b);
  return times[12];
}

const browser = await chromium.launch(launchOptions());
const site = await server(process.env.SITE);
const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });

await page.goto(site.url + "/index.html");
await page.waitForSelector("body[data-ready=true]");
const example = await keystrokeMs(page, "skills/card_replace/responses.yml");

const files = agentFiles(process.env.AGENT);
await page.goto(site.url + "/index.html" + link({ files, current: "skills/card_replace/responses.yml", response: "utter_card_replacement_fee", skill: "card_replace", memory: '{"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}}' }));
await page.reload();
await page.waitForSelector("body[data-ready=true]");
const card = await keystrokeMs(page, "skills/card_replace/responses.yml");
const responses = await page.locator("#response option").count();
console.log(`keystroke to findings (median of 25): example agent ${example.toFixed(1)} ms; card agent (${Object.keys(files).length} files, ${responses} responses with the bundled ones) ${card.toFixed(1)} ms`);

// The playground with a typo found: the finding at its line.
const editor = page.locator("#editor");
const text = await editor.inputValue();
const at = text.indexOf("replacement_reason ==");
await editor.evaluate((el, at) => el.setSelectionRange(at + 15, at + 16), at);
await page.keyboard.press("Delete");
await page.waitForSelector("#findings li");
await page.screenshot({ path: join(process.env.OUT, "playground-finding.png") });
await page.keyboard.type("s");
await page.click("#tab-render");
await page.screenshot({ path: join(process.env.OUT, "playground-render.png") });

// The review report's screenshots come from its layout test (browser.test.mjs).

await browser.close();
site.close();
