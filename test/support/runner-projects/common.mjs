// What the runner projects' tests share: an application under test that asks for the weather
// through the openai SDK, runs the tool the model calls and returns the model's last answer.
import OpenAI from 'openai';

export async function weatherApp(understudy) {
  const openai = new OpenAI({ baseURL: understudy.url('openai'), apiKey: understudy.apiKey, maxRetries: 0, timeout: 10_000 });
  const tools = [
    { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ];
  const messages = [{ role: 'user', content: 'Weather in Paris?' }];
  for (let turn = 0; turn < 4; turn++) {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
    const message = completion.choices[0].message;
    if (!message.tool_calls?.length) return message.content;
    messages.push(message);
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' });
  }
  throw new Error('the loop did not end');
}

export async function scriptWeather(session) {
  await session.scenario('weather').callsTool('weather', { city: 'Paris' }, 'call_paris').then().replies('Sunny in Paris.');
}
