; ModuleID = 'mp_fence.cu'
source_filename = "mp_fence.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @producer(ptr noundef writeonly captures(none) %0, ptr noundef %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %4 = icmp eq i32 %3, 0, !dbg !22
  br i1 %4, label %5, label %6, !dbg !22

5:                                                ; preds = %2
  store i32 42, ptr %0, align 4, !dbg !23, !tbaa !10
  tail call void @llvm.nvvm.membar.sys(), !dbg !24
  tail call void asm sideeffect "st.relaxed.sys.b32 [$0],$1;", "l,r,~{memory}"(ptr %1, i32 1) #3, !dbg !28, !srcloc !47
  br label %6, !dbg !48

6:                                                ; preds = %5, %2
  ret void, !dbg !49
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @consumer(ptr noundef readonly captures(none) %0, ptr noundef %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !50 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !51
  %5 = icmp eq i32 %4, 0, !dbg !53
  br i1 %5, label %6, label %11, !dbg !53

6:                                                ; preds = %3, %6
  %7 = tail call i32 asm sideeffect "ld.relaxed.sys.b32 $0,[$1];", "=r,l,~{memory}"(ptr %1) #3, !dbg !54, !srcloc !69
  %8 = icmp eq i32 %7, 1, !dbg !70
  br i1 %8, label %9, label %6, !dbg !71, !llvm.loop !72

9:                                                ; preds = %6
  tail call void @llvm.nvvm.membar.sys(), !dbg !76
  %10 = load i32, ptr %0, align 4, !dbg !78, !tbaa !10
  store i32 %10, ptr %2, align 4, !dbg !79, !tbaa !10
  br label %11, !dbg !80

11:                                               ; preds = %9, %3
  ret void, !dbg !81
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nounwind
declare void @llvm.nvvm.membar.sys() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nounwind }
attributes #3 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "mp_fence.cu", directory: ".")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "producer", scope: !7, file: !7, line: 11, type: !16, scopeLine: 11, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 12, column: 7, scope: !15)
!22 = !DILocation(line: 12, column: 19, scope: !15)
!23 = !DILocation(line: 13, column: 11, scope: !15)
!24 = !DILocation(line: 530, column: 46, scope: !25, inlinedAt: !27)
!25 = distinct !DISubprogram(name: "__threadfence_system", scope: !26, file: !26, line: 530, type: !16, scopeLine: 530, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!26 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_device_functions.h", directory: "")
!27 = distinct !DILocation(line: 14, column: 5, scope: !15)
!28 = !DILocation(line: 961, column: 3, scope: !29, inlinedAt: !31)
!29 = distinct !DISubprogram(name: "__cuda_atomic_store<unsigned int>", scope: !30, file: !30, line: 959, type: !16, scopeLine: 961, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!30 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h", directory: "")
!31 = distinct !DILocation(line: 1172, column: 5, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)0> >", scope: !30, file: !30, line: 1171, type: !16, scopeLine: 1171, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 863, column: 32, scope: !34, inlinedAt: !35)
!34 = distinct !DISubprogram(name: "__cuda_atomic_store_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_store<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !30, file: !30, line: 857, type: !16, scopeLine: 857, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!35 = distinct !DILocation(line: 1184, column: 3, scope: !36, inlinedAt: !37)
!36 = distinct !DISubprogram(name: "__atomic_store_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !30, file: !30, line: 1176, type: !16, scopeLine: 1177, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!37 = distinct !DILocation(line: 319, column: 3, scope: !38, inlinedAt: !40)
!38 = distinct !DISubprogram(name: "__atomic_store_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !39, file: !39, line: 317, type: !16, scopeLine: 318, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!39 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h", directory: "")
!40 = distinct !DILocation(line: 95, column: 6, scope: !41, inlinedAt: !43)
!41 = distinct !DISubprogram(name: "__atomic_store_dispatch<const cuda::std::__4::__atomic_ref_storage<int>, int, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !42, file: !42, line: 91, type: !16, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!42 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/types/base.h", directory: "")
!43 = distinct !DILocation(line: 80, column: 3, scope: !44, inlinedAt: !46)
!44 = distinct !DISubprogram(name: "store", scope: !45, file: !45, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!45 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/api/reference.h", directory: "")
!46 = distinct !DILocation(line: 15, column: 61, scope: !15)
!47 = !{i64 9200443}
!48 = !DILocation(line: 16, column: 3, scope: !15)
!49 = !DILocation(line: 17, column: 1, scope: !15)
!50 = distinct !DISubprogram(name: "consumer", scope: !7, file: !7, line: 19, type: !16, scopeLine: 19, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!51 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !52)
!52 = distinct !DILocation(line: 20, column: 7, scope: !50)
!53 = !DILocation(line: 20, column: 19, scope: !50)
!54 = !DILocation(line: 307, column: 3, scope: !55, inlinedAt: !56)
!55 = distinct !DISubprogram(name: "__cuda_atomic_load<unsigned int>", scope: !30, file: !30, line: 305, type: !16, scopeLine: 307, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!56 = distinct !DILocation(line: 830, column: 5, scope: !57, inlinedAt: !58)
!57 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)0> >", scope: !30, file: !30, line: 829, type: !16, scopeLine: 829, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!58 = distinct !DILocation(line: 104, column: 32, scope: !59, inlinedAt: !60)
!59 = distinct !DISubprogram(name: "__cuda_atomic_load_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_load<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !30, file: !30, line: 97, type: !16, scopeLine: 97, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!60 = distinct !DILocation(line: 842, column: 3, scope: !61, inlinedAt: !62)
!61 = distinct !DISubprogram(name: "__atomic_load_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !30, file: !30, line: 834, type: !16, scopeLine: 835, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!62 = distinct !DILocation(line: 305, column: 3, scope: !63, inlinedAt: !64)
!63 = distinct !DISubprogram(name: "__atomic_load_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !39, file: !39, line: 302, type: !16, scopeLine: 303, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!64 = distinct !DILocation(line: 106, column: 13, scope: !65, inlinedAt: !66)
!65 = distinct !DISubprogram(name: "__atomic_load_dispatch<cuda::std::__4::__atomic_ref_storage<int>, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !42, file: !42, line: 101, type: !16, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!66 = distinct !DILocation(line: 80, column: 3, scope: !67, inlinedAt: !68)
!67 = distinct !DISubprogram(name: "load", scope: !45, file: !45, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!68 = distinct !DILocation(line: 21, column: 68, scope: !50)
!69 = !{i64 9157327}
!70 = !DILocation(line: 21, column: 101, scope: !50)
!71 = !DILocation(line: 21, column: 5, scope: !50)
!72 = distinct !{!72, !71, !73, !74, !75}
!73 = !DILocation(line: 22, column: 5, scope: !50)
!74 = !{!"llvm.loop.mustprogress"}
!75 = !{!"llvm.loop.unroll.disable"}
!76 = !DILocation(line: 530, column: 46, scope: !25, inlinedAt: !77)
!77 = distinct !DILocation(line: 23, column: 5, scope: !50)
!78 = !DILocation(line: 24, column: 12, scope: !50)
!79 = !DILocation(line: 24, column: 10, scope: !50)
!80 = !DILocation(line: 25, column: 3, scope: !50)
!81 = !DILocation(line: 26, column: 1, scope: !50)
