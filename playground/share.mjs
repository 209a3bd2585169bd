#!/usr/bin/env node
// A playground link that holds an agent folder: the files utter reads,
// packed as the page packs them (docs/playground.md, "Share links").
//   node playground/share.mjs <agent folder> [--playground <url>]
// Prints the link (default page: https://utter.invalid/playground/, a
// placeholder: give the address where the playground is served).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";

const FILE_LIMIT = 8 * 1024 * 1024;
const LINK_LIMIT = 8 * 1024 * 1024;
const ROOT_FILES = ["responses.yml", "memory.yml", "utter.yml"];
const SKILL_FILES = ["responses.yml", "memory.yml", "skill.md"];

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let folder = null;
let playground = "https://utter.invalid/playground/";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--playground") {
    playground = args[++i] ?? fail("--playground needs the page's address");
  } else if (folder === null) {
    folder = args[i];
  } else {
    fail(`unexpected argument ${JSON.stringify(args[i])}; usage: share.mjs <agent folder> [--playground <url>]`);
  }
}
if (folder === null) fail("usage: share.mjs <agent folder> [--playground <url>]");
if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) fail(`${JSON.stringify(folder)} is not a folder`);

/// The files utter reads in the folder, by path relative to it.
function agentFiles() {
  const paths = ROOT_FILES.filter((f) => statSync(join(folder, f), { throwIfNoEntry: false })?.isFile());
  const skills = join(folder, "skills");
  if (statSync(skills, { throwIfNoEntry: false })?.isDirectory()) {
    for (const id of readdirSync(skills).sort()) {
      for (const f of SKILL_FILES) {
        const path = `skills/${id}/${f}`;
        if (statSync(join(folder, path), { throwIfNoEntry: false })?.isFile()) paths.push(path);
      }
    }
  }
  return paths;
}

const files = {};
for (const path of agentFiles()) {
  const size = statSync(join(folder, path)).size;
  if (size > FILE_LIMIT) fail(`${path} is larger than 8 MiB, the largest file utter reads`);
  files[path] = readFileSync(join(folder, path), "utf8");
}
if (Object.keys(files).length === 0) fail(`${JSON.stringify(folder)} holds no file utter reads`);
const state = {
  files,
  dialect: "",
  current: "responses.yml" in files ? "responses.yml" : Object.keys(files).sort()[0],
  response: "",
  skill: "",
  memory: "{}",
};
const json = Buffer.from(JSON.stringify(state));
if (json.length > LINK_LIMIT) fail(`the agent's files are ${json.length} bytes; a link holds at most 8 MiB`);
process.stdout.write(`${playground}#s1.${deflateRawSync(json).toString("base64url")}\n`);
