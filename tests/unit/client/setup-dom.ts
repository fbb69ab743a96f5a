/**
 * What every component test (a file that starts with `// @vitest-environment happy-dom`) imports first: the
 * Testing Library matchers (toBeInTheDocument...) and an unmounted tree after each test.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// happy-dom's Element.toString() is its outerHTML, where a browser's is "[object HTMLDivElement]": Popper (MUI's
// menus, tooltips and selects) asks `node.toString()` of the document's root to tell a window from an element, and
// serialised the whole page each time, a few seconds of CPU per component test file.
Element.prototype.toString = function elementTag(this: Element) {
  return `[object ${this.constructor.name}]`;
};
