package proc

// memfdCreate is memfd_create's number, which package syscall lacks on
// amd64.
const memfdCreate = 319
