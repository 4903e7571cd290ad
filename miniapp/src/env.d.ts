/** `.vue` files for the plain TypeScript check (`tsc -p miniapp`); vite compiles them. */
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
