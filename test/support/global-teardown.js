// Stops the containers global-setup started (only where a Docker engine was used).
'use strict';
module.exports = async function globalTeardown() {
  for (const container of globalThis.__testContainers ?? []) await container.stop();
};
