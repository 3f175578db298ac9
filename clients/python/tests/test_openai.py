"""The official Python `openai` client against Understudy: Chat (text, `.parse()`, `.stream()`, a tool
round, a contract failure as the client's own exception) and Responses (text, `.parse()`), every
session scripted and verified through the control API only."""

from __future__ import annotations

import json

import openai
import pytest
from pydantic import BaseModel

from understudy import Session, VerificationError

MODEL = "gpt-4o-mini"


class Person(BaseModel):
    name: str
    age: int


def client(session: Session) -> openai.OpenAI:
    return openai.OpenAI(base_url=session.url("openai"), api_key=session.api_key, max_retries=0, timeout=10)


def one_reply(session: Session, reply: dict) -> None:
    session.load({"scenarios": [{"name": "one", "steps": [{"reply": reply}]}]})


def test_chat_text(understudy_session: Session) -> None:
    one_reply(understudy_session, {"text": "Hello from Understudy."})
    completion = client(understudy_session).chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
    assert completion.choices[0].message.content == "Hello from Understudy."
    entry = understudy_session.journal()["entries"][0]
    assert (entry["script"], entry["status"]) == ("one", 200)


def test_chat_parse(understudy_session: Session) -> None:
    one_reply(understudy_session, {"json": {"name": "Ada", "age": 36}})
    completion = client(understudy_session).chat.completions.parse(
        model=MODEL, messages=[{"role": "user", "content": "who?"}], response_format=Person
    )
    assert completion.choices[0].message.parsed == Person(name="Ada", age=36)


def test_chat_parse_zero_config(understudy_server) -> None:
    # No script: the zero-config answer is the smallest instance of the (strict) schema pydantic sent.
    session = understudy_server.session(fallback="auto")
    try:
        completion = client(session).chat.completions.parse(model=MODEL, messages=[{"role": "user", "content": "who?"}], response_format=Person)
        parsed = completion.choices[0].message.parsed
        assert isinstance(parsed, Person)
    finally:
        session.delete()


def test_chat_stream(understudy_session: Session) -> None:
    one_reply(understudy_session, {"text": "One two three.", "chunks": ["One ", "two ", "three."]})
    deltas: list[str] = []
    with client(understudy_session).chat.completions.stream(model=MODEL, messages=[{"role": "user", "content": "count"}]) as stream:
        for event in stream:
            # The first chunk carries the role and an empty content, as OpenAI's does.
            if event.type == "content.delta" and event.delta:
                deltas.append(event.delta)
        final = stream.get_final_completion()
    assert deltas == ["One ", "two ", "three."]
    assert final.choices[0].message.content == "One two three."


def test_chat_tool_round(understudy_session: Session) -> None:
    understudy_session.load(
        {
            "scenarios": [
                {
                    "name": "weather",
                    "steps": [
                        {"reply": {"toolCalls": [{"id": "call_paris", "name": "weather", "arguments": {"city": "Paris"}}]}},
                        {"when": {"toolResult": {"id": "call_paris"}}, "reply": {"text": "Sunny in Paris."}},
                    ],
                }
            ]
        }
    )
    tools = [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
    messages: list = [{"role": "user", "content": "Weather in Paris?"}]
    openai_client = client(understudy_session)
    first = openai_client.chat.completions.create(model=MODEL, messages=messages, tools=tools).choices[0].message
    call = first.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("weather", {"city": "Paris"})
    messages += [first, {"role": "tool", "tool_call_id": call.id, "content": '{"sky": "sunny"}'}]
    second = openai_client.chat.completions.create(model=MODEL, messages=messages, tools=tools).choices[0].message
    assert second.content == "Sunny in Paris."
    understudy_session.verify(toolCalled=[{"name": "weather", "arguments": {"city": "Paris"}, "result": {"sky": "sunny"}}])


def test_chat_contract_failure_is_the_clients_conflict_error(understudy_server) -> None:
    # A scripted text that is not the JSON the request's schema asks for: 409 fixture_mismatch.
    session = understudy_server.session()
    try:
        one_reply(session, {"text": "not json at all"})
        with pytest.raises(openai.ConflictError) as raised:
            client(session).chat.completions.parse(model=MODEL, messages=[{"role": "user", "content": "who?"}], response_format=Person)
        assert raised.value.status_code == 409
        assert session.journal()["entries"][0]["error"]["code"] == "fixture_mismatch"
        # Verification fails, and says why: the request refused, the step left unused.
        with pytest.raises(VerificationError, match="fixture_mismatch") as failed:
            session.verify()
        assert not failed.value.report["ok"]
    finally:
        session.delete()


def test_responses_text_and_parse(understudy_session: Session) -> None:
    understudy_session.load(
        {"scenarios": [{"name": "two", "steps": [{"reply": {"text": "Hello from Responses."}}, {"reply": {"json": {"name": "Grace", "age": 45}}}]}]}
    )
    openai_client = client(understudy_session)
    response = openai_client.responses.create(model=MODEL, input="hi")
    assert response.output_text == "Hello from Responses."
    parsed = openai_client.responses.parse(model=MODEL, input="who?", text_format=Person)
    assert parsed.output_parsed == Person(name="Grace", age=45)
