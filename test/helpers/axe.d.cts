import type { Frame, Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The serious and critical axe violations in `target` (the document, or `selector` in it). */
export function seriousViolations(target: Page | Frame, selector?: string): Promise<AxeViolation[]>;
