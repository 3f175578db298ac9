// Building the page's elements. Text from the server only ever becomes a text node (strings passed
// as children, or textContent), never markup.

export type Child = Node | string | number | null | undefined | false;

type Attributes = Record<string, string | number | boolean | undefined>;

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

function setAttributes(node: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name === 'className' ? 'class' : name, value === true ? '' : String(value));
  }
}

/** An HTML element with attributes and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  setAttributes(node, attributes);
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children (strings become text). */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attributes);
  append(node, children);
  return node;
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The element with this id, which the page's HTML is known to hold. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}

/** Pretty JSON when the text parses as JSON, the text as it is otherwise. */
export function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A short one-line rendering of a JSON value. */
export function compactJson(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A time as `understudy journal` prints it: the clock in UTC, to the millisecond. */
export function utcClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(11, 23);
}

/** A <time> showing the UTC clock, the whole ISO time in its datetime and title. */
export function timeElement(iso: string, className?: string): HTMLTimeElement {
  const date = new Date(iso);
  const full = Number.isNaN(date.getTime()) ? iso : date.toISOString();
  return h('time', { className, datetime: full, title: full }, utcClock(iso));
}
