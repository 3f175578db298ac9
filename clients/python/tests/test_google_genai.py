"""The official Python `google-genai` client: generate, stream, structured output (`response.parsed`)
and function calling, scripted and verified through the control API."""

from __future__ import annotations

from google import genai
from google.genai import types
from pydantic import BaseModel

from understudy import Session

MODEL = "gemini-2.0-flash"


class Recipe(BaseModel):
    title: str
    minutes: int


def client(session: Session) -> genai.Client:
    return genai.Client(api_key=session.api_key, http_options=types.HttpOptions(base_url=session.url("gemini"), timeout=10_000))


def test_generate_and_stream(understudy_session: Session) -> None:
    understudy_session.load(
        {"scenarios": [{"name": "two", "steps": [{"reply": {"text": "Hello from Gemini's stand-in."}}, {"reply": {"text": "In three parts.", "chunks": ["In ", "three ", "parts."]}}]}]}
    )
    gemini = client(understudy_session)
    response = gemini.models.generate_content(model=MODEL, contents="hi")
    assert response.text == "Hello from Gemini's stand-in."
    pieces = [chunk.text for chunk in gemini.models.generate_content_stream(model=MODEL, contents="more")]
    assert "".join(p for p in pieces if p) == "In three parts."


def test_structured_output(understudy_session: Session) -> None:
    understudy_session.load({"scenarios": [{"name": "recipe", "steps": [{"reply": {"json": {"title": "Omelette", "minutes": 5}}}]}]})
    gemini = client(understudy_session)  # kept: the client closes its connection pool when collected
    response = gemini.models.generate_content(
        model=MODEL,
        contents="a quick recipe",
        config=types.GenerateContentConfig(response_mime_type="application/json", response_schema=Recipe),
    )
    assert response.parsed == Recipe(title="Omelette", minutes=5)


def test_function_calling(understudy_session: Session) -> None:
    understudy_session.load(
        {
            "scenarios": [
                {
                    "name": "weather",
                    "steps": [
                        {"reply": {"toolCalls": [{"name": "weather", "arguments": {"city": "Paris"}}]}},
                        {"when": {"toolResult": {"name": "weather"}}, "reply": {"text": "Sunny in Paris."}},
                    ],
                }
            ]
        }
    )
    declaration = types.FunctionDeclaration(
        name="weather", parameters_json_schema={"type": "object", "properties": {"city": {"type": "string"}}}
    )
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[declaration])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    gemini = client(understudy_session)
    first = gemini.models.generate_content(model=MODEL, contents="Weather in Paris?", config=config)
    call = first.function_calls[0]
    assert (call.name, call.args) == ("weather", {"city": "Paris"})
    contents = [
        types.Content(role="user", parts=[types.Part(text="Weather in Paris?")]),
        first.candidates[0].content,
        types.Content(role="user", parts=[types.Part.from_function_response(name="weather", response={"sky": "sunny"})]),
    ]
    second = gemini.models.generate_content(model=MODEL, contents=contents, config=config)
    assert second.text == "Sunny in Paris."
    understudy_session.verify(toolCalled=[{"name": "weather", "arguments": {"city": "Paris"}}])
