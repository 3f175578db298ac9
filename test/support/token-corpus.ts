// A deterministic mixed-text corpus for the o200k_base counter: the exactness test compares every
// sample against gpt-tokenizer, and bench/tokens.ts times both on it. Seeded, so every run (and
// every machine) gets the same text.

import { seededRandom } from '../../src/transport/scheduler.js';

export interface CorpusSample {
  kind: string;
  text: string;
}

const WORDS = (
  'the of and to in is was he for it with as his on be at by had are but from or have an they which one you were all her she ' +
  'there would their we him been has when who will no more if out so up said what its about than into them can only other ' +
  'time new some could these two may first then do any like my now over such our man me even most made after also did many ' +
  'before must through back years where much your way well down should because each just those people how too little state ' +
  'good very make world still own see men work long get here between both life being under never day same another know while ' +
  'last might us great old year off come since against go came right used take three tokenizer request response stream model ' +
  'assistant function schema parameter understudy provider journal scenario fixture verification latency throughput'
).split(' ');
const CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ve", "'LL", "'D", "'x"];
const PUNCTUATION = ['.', ',', ';', ':', '!', '?', '…', '—', ' -', '...', '?!', ').', '),', '"', "'", '“', '”', '«', '»'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function int(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

function codePoint(rand: () => number, from: number, to: number): string {
  return String.fromCodePoint(int(rand, from, to));
}

function prose(rand: () => number, chars: number): string {
  let out = '';
  while (out.length < chars) {
    const words = int(rand, 4, 18);
    let sentence = '';
    for (let i = 0; i < words; i++) {
      let word = pick(rand, WORDS);
      const style = rand();
      if (i === 0 || style < 0.05) word = word[0].toUpperCase() + word.slice(1);
      else if (style < 0.08) word = word.toUpperCase();
      if (rand() < 0.08) word += pick(rand, CONTRACTIONS);
      sentence += (i === 0 ? '' : rand() < 0.05 ? pick(rand, PUNCTUATION) + ' ' : ' ') + word;
    }
    out += sentence + pick(rand, ['.', '.', '.', '?', '!', '...', ':']) + pick(rand, [' ', ' ', ' ', '  ', '\n', '\n\n', ' \n']);
  }
  return out;
}

function identifier(rand: () => number): string {
  const parts = Array.from({ length: int(rand, 1, 3) }, () => pick(rand, WORDS));
  switch (int(rand, 0, 3)) {
    case 0:
      return parts.map((p, i) => (i === 0 ? p : p[0].toUpperCase() + p.slice(1))).join('');
    case 1:
      return parts.join('_');
    case 2:
      return parts.map((p) => p.toUpperCase()).join('_');
    default:
      return parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('') + int(rand, 0, 99);
  }
}

function code(rand: () => number, chars: number): string {
  let out = '';
  let depth = 0;
  while (out.length < chars) {
    const indent = pick(rand, ['  ', '    ', '\t']).repeat(depth);
    const a = identifier(rand);
    const b = identifier(rand);
    const lines = [
      `export function ${a}(${b}: string, count = ${int(rand, 0, 9999)}): Promise<${pick(rand, ['void', 'number', 'string[]'])}> {`,
      `const ${a} = ${b}.map((x) => x * ${int(rand, 2, 64)} + 0x${int(rand, 0, 65535).toString(16)});`,
      `if (${a} !== undefined && ${b}?.length >= ${int(rand, 1, 500)}) return ${a}[${int(rand, 0, 9)}];`,
      `// ${prose(rand, 40).trim().split('\n')[0]}`,
      `/** @param ${a} ${pick(rand, WORDS)} */`,
      `${a} += \`\${${b}}: ${pick(rand, WORDS)}\\n\`;`,
      `def ${a}(self, ${b}=None, **kwargs):`,
      `    return {"${a}": ${b}, 'x': [1, 2, 3]}  # ${pick(rand, WORDS)}`,
      `SELECT ${a}, COUNT(*) FROM ${b} WHERE id = ${int(rand, 1, 1e6)} GROUP BY 1;`,
      `const re = /^(?:[a-z]+|\\d{2,})\\s*$/giu; // ${a}`,
      `<div class="${a}" data-${pick(rand, WORDS)}="${b}">&nbsp;${pick(rand, WORDS)}</div>`,
      `${a}::${b}<'static, T>(&mut self) -> Result<(), Box<dyn Error>> {`,
    ];
    const line = pick(rand, lines);
    out += indent + line + (rand() < 0.05 ? '   ' : '') + '\n';
    if (line.endsWith('{')) depth = Math.min(depth + 1, 6);
    else if (depth > 0 && rand() < 0.3) {
      depth--;
      out += pick(rand, ['  ', '    ', '\t']).repeat(depth) + '}\n';
    }
    if (rand() < 0.05) out += '\n';
  }
  return out;
}

function jsonValue(rand: () => number, depth: number): unknown {
  const roll = rand();
  if (depth > 3 || roll < 0.4) {
    switch (int(rand, 0, 6)) {
      case 0:
        return int(rand, -1e6, 1e9);
      case 1:
        return Math.round(rand() * 1e6) / 1e3;
      case 2:
        return rand() < 0.5;
      case 3:
        return null;
      case 4:
        return `${pick(rand, WORDS)} ${codePoint(rand, 0x4e00, 0x9fff)}\t"${pick(rand, WORDS)}"\n`;
      default:
        return prose(rand, int(rand, 5, 60)).trim();
    }
  }
  if (roll < 0.6) return Array.from({ length: int(rand, 0, 5) }, () => jsonValue(rand, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = int(rand, 1, 6); i > 0; i--) object[identifier(rand)] = jsonValue(rand, depth + 1);
  return object;
}

function json(rand: () => number, chars: number): string {
  let out = '';
  while (out.length < chars) out += JSON.stringify(jsonValue(rand, 0), null, pick(rand, [undefined, 2, 4, '\t'])) + '\n';
  return out;
}

function cjk(rand: () => number, chars: number): string {
  let out = '';
  while (out.length < chars) {
    const run = int(rand, 1, 40);
    switch (int(rand, 0, 4)) {
      case 0:
        for (let i = 0; i < run; i++) out += codePoint(rand, 0x4e00, 0x9fff);
        out += pick(rand, ['。', '，', '、', '！', '？', '「', '」', '：']);
        break;
      case 1:
        for (let i = 0; i < run; i++) out += rand() < 0.5 ? codePoint(rand, 0x3041, 0x3096) : codePoint(rand, 0x30a1, 0x30fa);
        out += pick(rand, ['。', 'ー', '・', '']);
        break;
      case 2:
        for (let i = 0; i < run; i++) out += codePoint(rand, 0xac00, 0xd7a3) + (rand() < 0.3 ? ' ' : '');
        out += pick(rand, ['. ', '? ', ' ']);
        break;
      case 3:
        out += pick(rand, ['東京', '中国', '日本語', '한국어', '大阪', '漢字']) + int(rand, 0, 2024) + '年' + int(rand, 1, 12) + '月';
        break;
      default:
        out += pick(rand, ['\u3000', ' ', '\n', '']);
    }
  }
  return out;
}

function otherScripts(rand: () => number, chars: number): string {
  const pieces = [
    () => 'Привет, как дела? Это тестовая строка. ',
    () => 'مرحبا بالعالم، هذه جملة عربية. ',
    () => 'नमस्ते दुनिया, यह एक परीक्षण है। ',
    () => 'สวัสดีชาวโลกนี่คือการทดสอบ ',
    () => 'Γειά σου Κόσμε! Ελληνικά. ',
    () => 'café naïve résumé Ångström Œuvre straße ',
    () => 'cafe\u0301 nai\u0308ve e\u0301\u0301\u0301 ',
    () => 'שלום עולם ',
    () => 'ǅemal ǈubljana ǋ ',
    () => 'ʰʲʷ ˢᵘᵖ ',
    () => Array.from({ length: int(rand, 1, 30) }, () => codePoint(rand, 0x0400, 0x04ff)).join('') + ' ',
    () => Array.from({ length: int(rand, 1, 30) }, () => codePoint(rand, 0x0900, 0x097f)).join('') + ' ',
    () => Array.from({ length: int(rand, 1, 30) }, () => codePoint(rand, 0x00c0, 0x024f)).join('') + ' ',
    () => Array.from({ length: int(rand, 1, 8) }, () => codePoint(rand, 0x10000, 0x10ffff)).join('') + ' ',
  ];
  let out = '';
  while (out.length < chars) out += pick(rand, pieces)();
  return out;
}

function emoji(rand: () => number, chars: number): string {
  const sequences = ['👩‍👩‍👧‍👦', '👍🏽', '🇫🇷🇯🇵', '❤️', '☺︎', '🧑‍💻', '🏳️‍🌈', '1️⃣', '✨✨✨', '🙂🙃'];
  let out = '';
  while (out.length < chars) {
    const roll = rand();
    if (roll < 0.4) out += codePoint(rand, 0x1f300, 0x1faff);
    else if (roll < 0.6) out += pick(rand, sequences);
    else if (roll < 0.8) out += ' ' + pick(rand, WORDS) + ' ';
    else out += pick(rand, ['!', '!!', '?', ' ', '\n', ':)', ' :-( ', '<3']);
  }
  return out;
}

function numbers(rand: () => number, chars: number): string {
  const forms = [
    () => String(int(rand, 0, 1e9)),
    () => (rand() * 1e6).toFixed(int(rand, 0, 6)),
    () => int(rand, 1, 999).toLocaleString('en-US') + ',' + String(int(rand, 0, 999)).padStart(3, '0') + '.' + int(rand, 0, 99),
    () => `+1 (${int(rand, 200, 999)}) ${int(rand, 200, 999)}-${int(rand, 1000, 9999)}`,
    () => `${int(rand, 1900, 2100)}-${String(int(rand, 1, 12)).padStart(2, '0')}-${String(int(rand, 1, 28)).padStart(2, '0')}T12:00:00Z`,
    () => `${rand().toExponential(int(rand, 1, 8))}`,
    () => String(int(rand, 0, 9)).repeat(int(rand, 4, 40)),
    () => '٠١٢٣٤٥٦٧٨٩'.slice(0, int(rand, 1, 10)),
    () => '０１２３４５６７８９'.slice(0, int(rand, 1, 10)),
    () => pick(rand, ['½', '²', '³', 'Ⅻ', '⅔', '①②③', '𝟙𝟚𝟛']),
    () => `v${int(rand, 0, 20)}.${int(rand, 0, 99)}.${int(rand, 0, 999)}`,
    () =>
      `0x${int(rand, 0, 2 ** 31)
        .toString(16)
        .toUpperCase()}`,
  ];
  let out = '';
  while (out.length < chars) out += pick(rand, forms)() + pick(rand, [' ', ', ', '\n', '; ', '/', '']);
  return out;
}

function whitespace(rand: () => number, chars: number): string {
  const runs = [
    () => ' '.repeat(int(rand, 1, 300)),
    () => '\t'.repeat(int(rand, 1, 40)),
    () => '\n'.repeat(int(rand, 1, 20)),
    () => '\r\n'.repeat(int(rand, 1, 10)),
    () => ' \t \n'.repeat(int(rand, 1, 10)),
    () => '\u00a0\u2003\u3000\u2028\u2029\u000b\u000c\u0085'.slice(int(rand, 0, 7)),
    () => '   \n    \n\t\n',
    () => '\uFEFF',
  ];
  let out = '';
  while (out.length < chars) out += pick(rand, runs)() + (rand() < 0.6 ? pick(rand, WORDS) : pick(rand, ['.', '{', '}', '//', '']));
  return out;
}

/** Samples of every kind, each about `chars` characters long, `rounds` of each kind. */
export function tokenCorpus(seed: number, chars: number, rounds: number): CorpusSample[] {
  const rand = seededRandom(seed);
  const kinds: [string, (rand: () => number, chars: number) => string][] = [
    ['prose', prose],
    ['code', code],
    ['json', json],
    ['cjk', cjk],
    ['scripts', otherScripts],
    ['emoji', emoji],
    ['numbers', numbers],
    ['whitespace', whitespace],
  ];
  const samples: CorpusSample[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [kind, make] of kinds) samples.push({ kind, text: make(rand, chars) });
  }
  return samples;
}
