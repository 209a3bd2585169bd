-- Driven by tests/lsp.rs: Neovim's own LSP client against `utter lsp`.
local out = io.open(vim.env.UTTER_NVIM_OUT, "w")
vim.cmd("edit " .. vim.env.UTTER_NVIM_FILE)
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "utter",
  cmd = { vim.env.UTTER_BIN, "lsp" },
  root_dir = vim.env.UTTER_NVIM_ROOT,
})
vim.lsp.buf_attach_client(buf, client)
vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  out:write(string.format("diagnostic %d:%d %s\n", d.lnum + 1, d.col + 1, tostring(d.code)))
end
local c = vim.lsp.get_client_by_id(client)
local line = vim.fn.search("replacement_reason ==")
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line - 1, character = 40 } }
local result = c.request_sync("textDocument/definition", params, 5000, buf)
if result and result.result and result.result[1] then
  out:write("definition " .. result.result[1].uri .. " " .. result.result[1].range.start.line .. "\n")
else
  out:write("definition none\n")
end
out:close()
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client) == nil end, 50)
vim.cmd("qa!")
