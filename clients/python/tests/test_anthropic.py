"""The official Python `anthropic` client: messages, the stream helper, `.parse()` with a pydantic
output format, and a tool round, scripted and verified through the control API."""

from __future__ import annotations

import anthropic
from pydantic import BaseModel

from understudy import Session

MODEL = "claude-sonnet-4-5"


class City(BaseModel):
    name: str
    population: int


def client(session: Session) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=session.url("anthropic"), api_key=session.api_key, max_retries=0, timeout=10)


def test_messages_and_stream(understudy_session: Session) -> None:
    understudy_session.load(
        {"scenarios": [{"name": "two", "steps": [{"reply": {"text": "Hello from Claude's stand-in."}}, {"reply": {"text": "Streamed, word by word."}}]}]}
    )
    anthropic_client = client(understudy_session)
    message = anthropic_client.messages.create(model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "hi"}])
    assert message.content[0].text == "Hello from Claude's stand-in."
    with anthropic_client.messages.stream(model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "more"}]) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == "Streamed, word by word."
    assert final.stop_reason == "end_turn"


def test_parse(understudy_session: Session) -> None:
    understudy_session.load({"scenarios": [{"name": "city", "steps": [{"reply": {"json": {"name": "Paris", "population": 2100000}}}]}]})
    parsed = client(understudy_session).messages.parse(
        model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "a city"}], output_format=City
    )
    assert parsed.parsed_output == City(name="Paris", population=2100000)


def test_tool_round(understudy_session: Session) -> None:
    understudy_session.load(
        {
            "scenarios": [
                {
                    "name": "weather",
                    "steps": [
                        {"reply": {"toolCalls": [{"id": "toolu_paris", "name": "weather", "arguments": {"city": "Paris"}}]}},
                        {"when": {"toolResult": {"id": "toolu_paris"}}, "reply": {"text": "Sunny in Paris."}},
                    ],
                }
            ]
        }
    )
    tools = [{"name": "weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    messages: list = [{"role": "user", "content": "Weather in Paris?"}]
    anthropic_client = client(understudy_session)
    first = anthropic_client.messages.create(model=MODEL, max_tokens=100, messages=messages, tools=tools)
    use = next(block for block in first.content if block.type == "tool_use")
    assert (use.name, use.input, first.stop_reason) == ("weather", {"city": "Paris"}, "tool_use")
    messages += [
        {"role": "assistant", "content": first.content},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]},
    ]
    second = anthropic_client.messages.create(model=MODEL, max_tokens=100, messages=messages, tools=tools)
    assert second.content[0].text == "Sunny in Paris."
    understudy_session.verify(toolCalled=[{"name": "weather", "arguments": {"city": "Paris"}}])
