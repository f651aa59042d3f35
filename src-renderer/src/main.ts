import { createPinia } from 'pinia';
import { createApp } from 'vue';
import { useLab } from './api';
import App from './App.vue';
import { makeRouter } from './router';
import { setTheme, themeChoice } from './composables/theme';
import './style.css';

// Take the browser mode's token from the URL fragment before the router rewrites the hash.
useLab();
// The theme chosen on an earlier visit, before the first paint.
setTheme(themeChoice.value);
createApp(App).use(createPinia()).use(makeRouter()).mount('#app');
