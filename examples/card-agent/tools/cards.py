"""Shared tools of the card agent (stubs: the example shows responses, not a
card back end). The reference engine checks that every `import_tools` name in
a skill.md has a `@tool` function here."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Lock the selected card so it cannot be used any more.")
async def lock_card(context: ToolContext) -> ToolResult:
    return ToolResult(llm_response={"locked": True})


@tool(description="Order the replacement card with the chosen shipping speed.")
async def process_card_replacement(context: ToolContext) -> ToolResult:
    context.memory.set("order_confirmed", True)
    return ToolResult(llm_response={"ok": True})
