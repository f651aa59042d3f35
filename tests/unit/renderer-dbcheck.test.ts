// @vitest-environment happy-dom
/**
 * "Check database" in the sidebar (components/DatabaseCheck.vue, beside the versions in App.vue)
 * against a fake LabApi: progress while app.checkDatabase runs, then a sound file, a damaged one
 * with its problems and what to do, or a call that failed; and a notice's link (App.vue).
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent } from 'vue';
import { createMemoryHistory, createRouter } from 'vue-router';
import { LabError, type DatabaseCheck, type LabApi } from '../../src-main/contract';
import { setLab } from '../../src-renderer/src/api';
import App from '../../src-renderer/src/App.vue';
import DatabaseCheckPanel from '../../src-renderer/src/components/DatabaseCheck.vue';

const FILE = '/home/someone/.config/gpu-memory-lab/lab.db';
const SOUND: DatabaseCheck = { file: FILE, ok: true, problems: [], advice: null, durationMs: 12 };
const DAMAGED: DatabaseCheck = {
  file: FILE,
  ok: false,
  problems: ['row 3 missing from index runs_title', 'wrong # of entries in index runs_title'],
  advice: `restore it from a backup, or save what still reads (gpulab runs list / bundle export --db "${FILE}") and start a new database`,
  durationMs: 2400,
};

/** A checkDatabase that answers when the test says. */
function fakeLab() {
  let settle: { resolve: (r: DatabaseCheck) => void; reject: (e: unknown) => void } | null = null;
  const checkDatabase = vi.fn(() => new Promise<DatabaseCheck>((resolve, reject) => (settle = { resolve, reject })));
  const lab = {
    app: { checkDatabase, version: vi.fn(async () => ({ app: '1.2.3', simulator: '4', schema: 3, node: '24', electron: null })) },
    presets: { list: vi.fn(async () => []) },
    experiments: { list: vi.fn(async () => []) },
    on: vi.fn(() => () => {}),
  };
  return {
    lab: lab as unknown as LabApi,
    checkDatabase,
    resolve: (r: DatabaseCheck) => settle!.resolve(r),
    reject: (e: unknown) => settle!.reject(e),
  };
}

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
  vi.useRealTimers();
});

function mountPanel(lab: LabApi): VueWrapper {
  setLab(lab);
  wrapper = mount(DatabaseCheckPanel, { attachTo: document.body });
  return wrapper;
}

describe('Check database', () => {
  it('shows progress while the check runs, then a sound database with its file and time', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const fake = fakeLab();
    const w = mountPanel(fake.lab);
    expect(w.find('[data-testid="db-check-panel"]').exists()).toBe(false);
    await w.get('[data-testid="db-check"]').trigger('click');
    expect(fake.checkDatabase).toHaveBeenCalledTimes(1);
    expect(w.get('[data-testid="db-check"]').attributes('disabled')).toBeDefined();
    expect(w.get('[data-testid="db-check-progress"]').find('progress').exists()).toBe(true);
    expect(w.get('[data-testid="db-check-progress"]').text()).toContain('Checking every page of the database file');
    // A long check says how long it has taken so far; a second click does not start another.
    vi.advanceTimersByTime(3_100);
    await flushPromises();
    expect(w.get('[data-testid="db-check-progress"]').text()).toContain('(3 s)');
    await w.get('[data-testid="db-check"]').trigger('click');
    expect(fake.checkDatabase).toHaveBeenCalledTimes(1);

    fake.resolve(SOUND);
    await flushPromises();
    expect(w.find('[data-testid="db-check-progress"]').exists()).toBe(false);
    const result = w.get('[data-testid="db-check-result"]');
    expect(result.text()).toContain('No problems: the database is sound.');
    expect(result.text()).toContain(FILE);
    expect(result.text()).toContain('12 ms');
    expect(w.get('[data-testid="db-check"]').attributes('disabled')).toBeUndefined();
    await w.get('[data-testid="db-check-close"]').trigger('click');
    expect(w.find('[data-testid="db-check-panel"]').exists()).toBe(false);
  });

  it('lists the problems of a damaged database, one each, with what to do', async () => {
    const fake = fakeLab();
    const w = mountPanel(fake.lab);
    await w.get('[data-testid="db-check"]').trigger('click');
    fake.resolve(DAMAGED);
    await flushPromises();
    const result = w.get('[data-testid="db-check-result"]');
    expect(result.attributes('role')).toBe('alert');
    expect(result.text()).toContain('The database is damaged: 2 problems found.');
    expect(w.findAll('[data-testid="db-check-problems"] li').map((li) => li.text())).toEqual(DAMAGED.problems);
    expect(w.get('[data-testid="db-check-advice"]').text()).toContain('restore it from a backup');
    expect(result.text()).toContain(FILE);
    expect(result.text()).toContain('2.4 s');
    // Escape puts the panel away.
    await w.get('[data-testid="db-check-panel"]').trigger('keydown', { key: 'Escape' });
    expect(w.find('[data-testid="db-check-panel"]').exists()).toBe(false);
  });

  it('says so when the check could not run', async () => {
    const fake = fakeLab();
    const w = mountPanel(fake.lab);
    await w.get('[data-testid="db-check"]').trigger('click');
    fake.reject(new LabError('conflict', 'the lab is shutting down'));
    await flushPromises();
    expect(w.get('[data-testid="db-check-result"]').text()).toContain('The check could not run: the lab is shutting down');
  });

  /** The whole app on a fake lab, every route an empty page. */
  async function mountApp(fake: ReturnType<typeof fakeLab>) {
    setLab(fake.lab);
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)*', component: defineComponent({ template: '<div />' }) }] });
    await router.push('/');
    const pinia = createPinia();
    setActivePinia(pinia);
    wrapper = mount(App, { global: { plugins: [pinia, router] } });
    await flushPromises();
    return { wrapper, router };
  }

  it('sits in the sidebar beside the app’s versions', async () => {
    const fake = fakeLab();
    await mountApp(fake);
    const footer = wrapper!.get('[data-testid="version"]');
    expect(footer.text()).toContain('App 1.2.3');
    await footer.get('[data-testid="db-check"]').trigger('click');
    expect(fake.checkDatabase).toHaveBeenCalledTimes(1);
  });

  it('a notice with a link shows it, and following it dismisses the notice', async () => {
    const { router } = await mountApp(fakeLab());
    const { useNotify } = await import('../../src-renderer/src/stores/notify');
    useNotify().info('Queued 1 run of Sweep', { to: '/runs/abc', label: 'Open the run' });
    useNotify().info('Saved');
    await flushPromises();
    const notice = (text: string) => wrapper!.findAll('[data-testid="notice"]').filter((n) => n.text().includes(text));
    expect(notice('Queued 1 run')).toHaveLength(1);
    const link = notice('Queued 1 run')[0]!.get('[data-testid="notice-link"]');
    expect(link.text()).toBe('Open the run');
    expect(link.attributes('href')).toBe('/runs/abc');
    expect(notice('Saved')[0]!.find('[data-testid="notice-link"]').exists()).toBe(false);
    await link.trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.path).toBe('/runs/abc');
    expect(notice('Queued 1 run')).toHaveLength(0);
    expect(notice('Saved')).toHaveLength(1);
  });
});
