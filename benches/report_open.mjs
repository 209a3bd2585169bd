// How long a review page takes to open in headless Chromium: from the
// request to the load event, and to the first paint of its top. Run by
// benches/report_open.sh, which makes the pages.
//   PAGES="a.html b.html" CHROMIUM=/usr/bin/chromium node benches/report_open.mjs
import { chromium } from "../playground/tests/node_modules/playwright-core/index.mjs";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
for (const file of process.env.PAGES.split(" ")) {
  const times = [];
  for (let run = 0; run < 3; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const start = Date.now();
    await page.goto("file://" + file, { waitUntil: "load", timeout: 120_000 });
    // Two animation frames: the first paint is done.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    times.push(Date.now() - start);
    await page.close();
  }
  times.sort((a, b) => a - b);
  console.log(`${file}: median ${times[1]} ms (runs: ${times.join(", ")})`);
}
await browser.close();
