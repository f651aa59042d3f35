/**
 * The kernel editor's text, launch and last run: module state, so that they outlive the view (open
 * a run's page, come back, and the kernel is still there).
 */
import { reactive } from 'vue';
import { FIRST_KERNEL } from '../../../src-sim/simt/examples';

function initial() {
  return {
    source: FIRST_KERNEL,
    /** The example last loaded, or 'own' once the text is the user's. */
    example: 'first',
    /** The user's own text, kept when an example is loaded over it. */
    own: FIRST_KERNEL,
    blocks: '1' as string | number,
    threads: '64' as string | number,
    steps: '200000' as string | number,
    preset: '',
    runId: '',
    /** The text the last run ran (a run-time error's line is marked only while the text is the same). */
    ranSource: '',
  };
}

export const kernelDraft = reactive(initial());

/** Back to the first kernel and no run (tests). */
export function resetKernelDraft(): void {
  Object.assign(kernelDraft, initial());
}
