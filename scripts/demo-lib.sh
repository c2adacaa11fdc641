# Sourced by the kernel demos (demo-kernel.sh, demo-seed.sh): where they
# keep the kernel tree, builds and runs they share, so that one demo's
# first build serves the other.
#
# kernel_demo_dir: sets DEMO_DIR unless the user did, and makes it.
# As root /var/cache/perfbot/kernel-demo, else the user's cache.
kernel_demo_dir() {
	if [ -z "${DEMO_DIR:-}" ]; then
		if [ "$(id -u)" = 0 ]; then DEMO_DIR=/var/cache/perfbot/kernel-demo
		else DEMO_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/perfbot/kernel-demo; fi
	fi
	mkdir -p "$DEMO_DIR"
}
