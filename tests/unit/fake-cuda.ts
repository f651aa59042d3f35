/**
 * Stand-ins for nvcc and nvidia-smi in a folder to put first on PATH: nvcc answers --version and
 * "builds" each program as a shell script whose body is `program` (printf's format: %s is the
 * program's name, e.g. the experiment), and nvidia-smi lists one H100 of compute capability `cap`.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeFakeCuda(bin: string, program: string, o: { cap?: string; gpus?: boolean } = {}): NodeJS.ProcessEnv {
  mkdirSync(bin, { recursive: true });
  const script = (path: string, body: string) => {
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  };
  script(
    join(bin, 'nvcc'),
    `if [ "$1" = "--version" ]; then echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0; fi
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then shift; o="$1"; fi; shift; done
printf '#!/bin/sh\\n${program}\\n' "$o" > "$o"; chmod +x "$o"`,
  );
  if (o.gpus !== false) script(join(bin, 'nvidia-smi'), `case "$1" in --query-gpu=compute_cap) echo "${o.cap ?? '9.0'}";; *) echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-test)";; esac`);
  return { PATH: `${bin}:/usr/bin:/bin` };
}
