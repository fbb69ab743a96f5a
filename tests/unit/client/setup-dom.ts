/**
 * What every component test (a file that starts with `// @vitest-environment happy-dom`) imports first: the
 * Testing Library matchers (toBeInTheDocument...) and an unmounted tree after each test.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
