import { createPinia } from 'pinia';
import { createApp } from 'vue';
import { useLab } from './api';
import App from './App.vue';
import { makeRouter } from './router';
import './style.css';

// Take the browser mode's token from the URL fragment before the router rewrites the hash.
useLab();
createApp(App).use(createPinia()).use(makeRouter()).mount('#app');
