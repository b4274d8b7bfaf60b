package proc

import "syscall"

// memfdCreate is memfd_create's number.
const memfdCreate = syscall.SYS_MEMFD_CREATE
