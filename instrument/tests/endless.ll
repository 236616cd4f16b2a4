; A spin whose plain load was hoisted out of it (hand-written IR of the shape
; -O1 gives when the loop body has a side effect the compiler keeps, here none
; is needed): read the flag once, then loop forever if it was 0.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @consumer(ptr addrspace(1) %data, ptr addrspace(1) %flag, ptr addrspace(1) %out) {
entry:
  %f = load i32, ptr addrspace(1) %flag, align 4
  %z = icmp eq i32 %f, 0
  br i1 %z, label %forever, label %done

forever:
  br label %forever

done:
  %d = load i32, ptr addrspace(1) %data, align 4
  store i32 %d, ptr addrspace(1) %out, align 4
  ret void
}
