"""Keystroke to diagnostics in `utter lsp` (issue 48), at several project sizes.

   python3 benches/lsp_latency.py UTTER [N ...]      (default N: 100 1000 3000)
   python3 benches/lsp_latency.py --one-file UTTER [N ...]
   python3 benches/lsp_latency.py [--one-file] --full-sync UTTER [N ...]
   python3 benches/lsp_latency.py --write DIR N      (only write the agent of N responses)

With `--one-file`, every response is in the root responses.yml (as many Rasa agents keep
them), and the edits are to the response in the middle of it.

The agent of N responses: 30 skills (N/30 responses each, in responses.yml), a memory.yml
per skill and a skill.md referencing two of its responses, and project memory; a third of
the variants conditioned on skill or project entries, texts with placeholders. The client
opens one skill's responses.yml and sends 40 edits (one character typed or deleted in a
text, then in a condition), each a didChange of its range as an editor sends it to a
server that asks for incremental sync (`--full-sync`: the whole text); it times each edit from sending it
to the server's next publishDiagnostics for that file (one per change), read in the
sending thread and prints the median and the 90th
percentile.
"""
import json, os, statistics, subprocess, sys, tempfile, time

SKILLS = 30
ONE_FILE = False
FULL_SYNC = False
EDITS = int(os.environ.get("LSP_EDITS", "40"))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def response_lines(name, i, namespace, fee, whose):
    """One response: a third of them with two conditioned variants."""
    lines = [f"  {name}:\n"]
    if i % 3 == 0:
        lines.append(f"    - text: The fee is {fee} for a {{reason}} card.\n"
                     f"      condition: session.{namespace}.reason == \"lost\" and session.{namespace}.count > {i}\n")
        lines.append(f"    - text: Hello {{customer_name}}, case {i}.\n"
                     f"      condition: session.project.authenticated\n")
    lines.append(f"    - text: Response {i} {whose}.\n")
    return lines


def write_one_file(root, n):
    """Every response in the root responses.yml; the same shapes."""
    write(os.path.join(root, "memory.yml"),
          "customer_name:\n  type: text\nauthenticated:\n  type: bool\n"
          "reason:\n  type: categorical\n  enum_values: [lost, stolen, damaged]\n"
          "count:\n  type: int\nfee:\n  type: float\n")
    lines = ["responses:\n"]
    for i in range(n):
        lines += response_lines(f"utter_r{i}", i, "project", "{fee}", "of the agent")
    path = os.path.join(root, "responses.yml")
    write(path, "".join(lines))
    return path


def write_agent(root, n):
    if ONE_FILE:
        return write_one_file(root, n)
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "memory.yml"), "w") as f:
        f.write("customer_name:\n  type: text\nauthenticated:\n  type: bool\n")
    per = max(1, n // SKILLS)
    r = 0
    for s in range(SKILLS):
        d = os.path.join(root, "skills", f"skill{s}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "memory.yml"), "w") as f:
            f.write("schema:\n  public:\n    reason:\n      type: categorical\n"
                    "      enum_values: [lost, stolen, damaged]\n  private:\n"
                    "    count:\n      type: int\n    fee:\n      type: float\n")
        lines = ["responses:\n"]
        names = []
        for i in range(per if s < SKILLS - 1 else n - r):
            name = f"utter_s{s}_r{i}"
            names.append(name)
            lines += response_lines(name, i, f"skill{s}", f"{{session.skill{s}.fee}}", f"of skill {s}")
        r += len(names)
        with open(os.path.join(d, "responses.yml"), "w") as f:
            f.write("".join(lines))
        with open(os.path.join(d, "skill.md"), "w") as f:
            f.write(f"---\ndescription: Skill {s}\nutter:\n  - {names[0]}:\n      on: activate\n---\n\nDo skill {s}.\n")
    return os.path.join(root, "skills", "skill0", "responses.yml")


def measure(utter, n):
    root = os.path.join(tempfile.mkdtemp(), "agent")
    path = write_agent(root, n)
    text = open(path).read()
    proc = subprocess.Popen([utter, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    uri = "file://" + path
    out = proc.stdout

    def send(obj):
        body = json.dumps(obj).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

    def wait():
        """Reads the server's messages until the next diagnostics of the file
        (one per change), in this thread: no hand-over adds to the time."""
        while True:
            line = out.readline()
            if not line:
                raise SystemExit("the server stopped")
            if line.lower().startswith(b"content-length"):
                size = int(line.split(b":")[1])
                out.readline()
                msg = json.loads(out.read(size))
                if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                    return time.perf_counter(), msg["params"]["diagnostics"]

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}, "rootUri": "file://" + root}})
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    wait()
    times = []
    if ONE_FILE:
        middle = (n // 2) // 3 * 3
        text_at = text.index(f"Response {middle} of the agent")
        cond_at = text.index(f"count > {middle}\n") + len("count > ")
    else:
        text_at = text.index("Response 1 of skill")
        cond_at = text.index("count > ") + len("count > ")
    for v in range(2, EDITS + 2):
        at = text_at if v < EDITS // 2 + 2 else cond_at
        # Type a digit, then delete it: every other version is the original.
        if FULL_SYNC:
            edited = text[:at] + "9" + text[at:] if v % 2 == 0 else text
            change = {"text": edited}
        else:
            # As an editor sends it to a server that asks for incremental
            # sync: the range and its new text (the text is ASCII, so a
            # column is a byte count).
            line = text.count("\n", 0, at)
            column = at - (text.rfind("\n", 0, at) + 1)
            end = column if v % 2 == 0 else column + 1
            change = {"range": {"start": {"line": line, "character": column},
                                "end": {"line": line, "character": end}},
                      "text": "9" if v % 2 == 0 else ""}
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": v}, "contentChanges": [change]}})
        done, _ = wait()
        times.append((done - start) * 1000)
    send({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.stdin.close()
    proc.wait(timeout=30)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)]


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        print(write_agent(sys.argv[2], int(sys.argv[3])))
        sys.exit(0)
    args = sys.argv[1:]
    while args[0] in ("--one-file", "--full-sync"):
        ONE_FILE = ONE_FILE or args[0] == "--one-file"
        FULL_SYNC = FULL_SYNC or args[0] == "--full-sync"
        args = args[1:]
    utter = args[0]
    for n in [int(a) for a in args[1:]] or [100, 1000, 3000]:
        median, p90 = measure(utter, n)
        print(f"{n} responses: keystroke to diagnostics median {median:.2f} ms, p90 {p90:.2f} ms")
