"""Boards that this project provisions itself (:mod:`.qemu_aarch64`: an aarch64 board emulated
by qemu-user on this machine).

An emulated board runs the cross-built artifacts for real, so its correctness is real; its
times are the emulator's, so they are marked and never ranked. The rule and its setting
(``EKB_RPC_EMULATED=key1,key2``) belong to the ``rpc:`` backend, which the sandboxed run step
imports: see ``evaluator.backends.emulation.is_emulated``.
"""
