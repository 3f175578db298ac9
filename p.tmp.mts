import { startUnderstudy } from './src/client/index.ts';
import { rawRequest } from './test/support/raw-http.ts';
const mock = await startUnderstudy();
const port = Number(new URL(mock.baseUrl).port);
console.log(await rawRequest(port, 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'));
await mock.close();
