import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/experiments' },
  { path: '/experiments', name: 'experiments', component: () => import('./views/ExperimentsView.vue'), meta: { title: 'Experiments' } },
  { path: '/kernels', name: 'kernels', component: () => import('./views/KernelView.vue'), meta: { title: 'Kernels' } },
  { path: '/queue', name: 'queue', component: () => import('./views/QueueView.vue'), meta: { title: 'Queue' } },
  { path: '/runs', name: 'runs', component: () => import('./views/RunsView.vue'), meta: { title: 'Runs' } },
  { path: '/runs/:id', name: 'run', component: () => import('./views/RunView.vue'), props: true, meta: { title: 'Run' } },
  { path: '/sweeps/:id', name: 'sweep', component: () => import('./views/SweepView.vue'), props: true, meta: { title: 'Sweep' } },
  { path: '/runs/:id/cache', name: 'cache', component: () => import('./views/CacheView.vue'), props: true, meta: { title: 'Cache view' } },
  { path: '/real-gpu', name: 'real-gpu', component: () => import('./views/RealGpuView.vue'), meta: { title: 'Real GPU' } },
  { path: '/compare', name: 'compare', component: () => import('./views/CompareView.vue'), meta: { title: 'Compare' } },
  { path: '/presets', name: 'presets', component: () => import('./views/PresetsView.vue'), meta: { title: 'Presets' } },
  { path: '/reports', name: 'reports', component: () => import('./views/ReportsView.vue'), meta: { title: 'Reports' } },
  { path: '/scorecard', name: 'scorecard', component: () => import('./views/ScorecardView.vue'), meta: { title: 'Reproduction scorecard' } },
  { path: '/:pathMatch(.*)*', redirect: '/experiments' },
];

export function makeRouter() {
  // Hash history: works on app://lab/index.html in Electron and from the loopback server alike.
  const router = createRouter({ history: createWebHashHistory(), routes });
  router.afterEach((to) => {
    document.title = `${String(to.meta.title ?? 'GPU Memory Lab')} · GPU Memory Lab`;
  });
  return router;
}
