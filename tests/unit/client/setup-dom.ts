/**
 * Shared set-up of the component tests (files that start with `// @vitest-environment happy-dom` and import this):
 * Testing Library's DOM matchers (`toBeInTheDocument`, `toHaveValue`...) and an unmounted screen after each test.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
