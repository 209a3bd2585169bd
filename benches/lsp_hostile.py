"""A hostile language-server client: measures the server's peak memory (docs/reliability.md).
   python3 lsp_hostile.py UTTER CASE   (CASE: frames | values | folders)"""
import json, os, subprocess, sys, tempfile, time, threading

utter, case = sys.argv[1], sys.argv[2]
proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", utter, "lsp"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)

def send(obj=None, raw=None):
    body = raw if raw is not None else json.dumps(obj).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()

def drain():
    out = proc.stdout
    while True:
        line = out.readline()
        if not line:
            return
        if line.lower().startswith(b"content-length"):
            n = int(line.split(b":")[1])
            out.readline()
            out.read(n)
threading.Thread(target=drain, daemon=True).start()

send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
root = tempfile.mkdtemp()
agent = os.path.join(root, "agent")
os.makedirs(agent)
open(os.path.join(agent, "memory.yml"), "w").write("x: {type: int}\n")
big = "responses:\n" + "".join(f"  utter_r{i}:\n    - text: t{i}\n      condition: session.project.x == {i}\n    - text: d\n" for i in range(40000))
uri = "file://" + os.path.join(agent, "responses.yml")
if case == "frames":
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": big}}})
    pad = "#" + "x" * (16 * 1024 * 1024) + "\n"
    for v in range(8):
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": v + 2}, "contentChanges": [{"text": pad + big}]}})
elif case == "values":
    send(raw=b"[" + b"0," * (32 * 1024 * 1024 - 64) + b"0]")
elif case == "folders":
    for i in range(20000):
        d = os.path.join(root, f"a{i}")
        os.makedirs(d)
        open(os.path.join(d, "responses.yml"), "w").write("responses:\n  utter_a:\n    - text: a\n")
        send({"jsonrpc": "2.0", "id": i + 1, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file://" + os.path.join(d, "responses.yml")}, "position": {"line": 1, "character": 4}}})
send({"jsonrpc": "2.0", "id": 999999, "method": "shutdown"})
send({"jsonrpc": "2.0", "method": "exit"})
proc.stdin.close()
proc.wait()
err = proc.stderr.read().decode().strip().splitlines()
print(case, "peak", int(err[-1]) // 1024, "MiB;", "stderr:", [l[:120] for l in err[:-1]][:3])
