/** Version of the simulator, stored with every run so that results stay reproducible. */
export const SIM_VERSION = '0.1.0';
