// What the browser tests and the screenshot script share: Debian's
// Chromium, launched for a closed network, and a static file server.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import pw from "playwright-core";

export const chromium = pw.chromium;

export function launchOptions() {
  return {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    // No background connections: this machine's network is closed.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  };
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
};

/// Serves `root` on a free loopback port: `{url, close}`.
export function server(root) {
  const http = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path.includes("..")) {
      res.writeHead(400).end();
      return;
    }
    try {
      const body = await readFile(join(root, path));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    http.listen(0, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${http.address().port}`, close: () => http.close() });
    });
  });
}
